// Whether a Node has the built-in SQLite @ewp/sqlite runs on without better-sqlite3: Node 22.16 on (rows as
// arrays). Below it, better-sqlite3 (an optional peer of @ewp/sqlite) is what a user installs for a SQLite
// ledger. Read from the version: importing node:sqlite here would print Node's experimental warning.

/** True when Node `version` (default: this one) has the node:sqlite @ewp/sqlite runs on. */
export function hasNodeSqlite(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 16);
}
