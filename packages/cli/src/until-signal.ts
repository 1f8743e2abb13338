/** Resolves with the signal's name at the first SIGINT or SIGTERM, then stops listening (servers run until then). */
export function untilSignal(): Promise<string> {
  return new Promise((resolveSignal) => {
    const onSignal = (signal: string) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolveSignal(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
