// Processes a test spawns (the built `ewp` binary above all) resolve modules as a user's would:
// `pnpm exec`, which runs vitest, sets NODE_PATH to pnpm's hoisted folder, a fallback that once hid
// a resolution bug of the built binary (`ewp ingest` from a named pipe).
delete process.env.NODE_PATH;
