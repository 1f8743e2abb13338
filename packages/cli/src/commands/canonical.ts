import { parseArgs } from 'node:util';
import { CanonicalizationError, domainDigest, ebcj1Bytes, jcsBytes, jcsDigest, readJsonExact } from '@ewp/canonical';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE } from '../cli-io.js';

const HELP = `usage: ewp canonical [--ebcj1 | --jcs] [--digest DOMAIN] < value.json

Read one JSON value on stdin and write its canonical bytes (no trailing newline), or with
--digest the lowercase hex SHA-256 domain digest and a newline.

  --ebcj1          EBCJ-1 (default): integers of any size kept exact; floats (even 1.0), lone
                   surrogates and duplicate keys refused. Digest:
                   SHA-256("evidencebound:" + DOMAIN + ":EBCJ-1" || 0x00 || bytes)
  --jcs            RFC 8785: numbers as IEEE doubles, keys by UTF-16 code unit. Digest:
                   SHA-256("ewp:" + DOMAIN + ":JCS" || 0x00 || bytes)
  --digest DOMAIN  e.g. evidence, checkpoint, verification, operation, checkpoint-id, ewp-view

Exit codes: 0 written; 1 the value was refused (typed error on stderr); 2 bad arguments.
`;

const DOMAIN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  // fatal: invalid UTF-8 must be refused, not turned into U+FFFD.
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(Buffer.concat(chunks));
}

/** `ewp canonical`: canonical bytes or domain digest of one JSON value read on stdin. */
export const canonicalCommand: Command = async (args: string[], io: CliIO): Promise<number> => {
  let values: { ebcj1?: boolean; jcs?: boolean; digest?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: { ebcj1: { type: 'boolean' }, jcs: { type: 'boolean' }, digest: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.stderr.write(`ewp canonical: ${(error as Error).message}\n\n${HELP}`);
    return EXIT_USAGE;
  }
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  if (values.ebcj1 && values.jcs) {
    io.stderr.write('ewp canonical: choose one of --ebcj1 and --jcs\n');
    return EXIT_USAGE;
  }
  if (values.digest !== undefined && !DOMAIN.test(values.digest)) {
    io.stderr.write(`ewp canonical: --digest needs a domain name like "evidence", got ${JSON.stringify(values.digest)}\n`);
    return EXIT_USAGE;
  }
  const jcs = values.jcs === true;
  let text: string;
  try {
    text = await readAll(io.stdin);
  } catch (error) {
    io.stderr.write(`ewp canonical: refused (JSON_SYNTAX) at $: stdin is not valid UTF-8 (${(error as Error).message})\n`);
    return EXIT_SOME_FAILED;
  }
  try {
    const value = readJsonExact(text.replace(/^\uFEFF/, ''), { floats: jcs ? 'number' : 'refuse' });
    if (values.digest !== undefined) {
      const hex = jcs ? jcsDigest(values.digest, value) : domainDigest(values.digest, value);
      io.stdout.write(`${hex}\n`);
    } else {
      io.stdout.write(jcs ? jcsBytes(value) : ebcj1Bytes(value));
    }
    return EXIT_OK;
  } catch (error) {
    if (CanonicalizationError.isInstance(error)) {
      // The message of an EwpError with a path starts with that path: `$.a[2]: floats are not supported…`.
      io.stderr.write(`ewp canonical: refused (${error.code}) at ${error.message}\n`);
      return EXIT_SOME_FAILED;
    }
    throw error;
  }
};
