/**
 * The kernel's error codes, and the codes several packages raise. Every error an `@ewp/*` package
 * throws on bad input or broken state carries a stable code (on an {@link EwpError}); tools, the
 * CLI and the MCP server map codes, never class identities or message text.
 *
 * A code that only one package raises lives in that package's own table (an {@link ErrorCodeTable}
 * exported beside its error class: `CLI_ERROR_CODES`, `RECEIPTS_ERROR_CODES`, `TOOL_ERROR_CODES`, …),
 * so a package adds its codes without editing the kernel. A code lives in exactly one table; a code
 * string, once published, never changes.
 */
export const EWP_ERROR_CODES = {
  // View refusals (the kernel's decoder, protocol §4).
  JSON_SYNTAX: 'the text is not JSON, or not JSON the reference reads',
  NOT_AN_OBJECT: 'a value that must be a JSON object is not one',
  MISSING_FIELD: 'a required field is absent',
  WRONG_TYPE: 'a field has the wrong JSON type',
  EMPTY_STRING: 'a field that must be non-empty is empty',
  UNSUPPORTED_TEXT_VALUE: 'a text field holds a value the reference cannot turn into text',
  UNKNOWN_ENUM_VALUE: 'a field holds a value outside its enumeration',
  NOT_AN_ID_LIST: 'a field that must be a list of ids is not one',
  OUT_OF_RANGE: 'a number lies outside its allowed range',
  NOT_FINITE: 'a number is NaN or infinite',
  UNBOUND_PROPOSITION: 'a record names another proposition than its view',
  DUPLICATE_ID: 'two records of one kind share an id',
  SOURCE_REF_MISMATCH: 'records citing one source_id disagree about that source',
  // Input bytes (every reader of files, streams and request bodies).
  INVALID_UTF8: 'input bytes that are not UTF-8 (the message gives the byte offset); never replaced by U+FFFD',
  // Other kernel refusals.
  UNKNOWN_POLICY: 'the policy identity is not reference-v2',
  BAD_EVALUATED_AT: 'the evaluation time is missing or not an instant',
  TIMESTAMP_OUT_OF_RANGE: 'a time lies outside years 1-9999',
  INVALID_ACTION: 'an action or risk policy given to mayAct is malformed',
  INVALID_WARRANT: 'a warrant given to mayAct does not carry valid axes',
  EWP_REFUSE_INVALID_ARGUMENT: 'a library call got an argument it cannot use (the path names the argument)',
  // Stores (the EvidenceStore contract; every backend raises them).
  EWP_REFUSE_IMMUTABLE_RECORD: 'a snapshot or record id is already bound to other content',
  EWP_REFUSE_MISSING_VIEW: 'no stored snapshot for that proposition or view id',
  EWP_REFUSE_LEDGER_UNAVAILABLE: 'the ledger could not be read or written (closed, busy, damaged, unreachable)',
  EWP_REFUSE_UNSTORABLE_TEXT: 'an id or text the store cannot keep (PostgreSQL text holds no U+0000)',
  // Every decoder of caller input (the field-limits table).
  EWP_REFUSE_FIELD_TOO_LARGE: 'an id, kind, text or array longer, or a value nested deeper, than the field-limits table allows',
  // Tool calls and servers (the tool bindings, MCP, the inspector, the CLI).
  EWP_REFUSE_INGEST_ROLE: 'a write through a read-only tool set or server',
  EWP_REFUSE_INVALID_ARGUMENTS: 'tool arguments do not match the tool schema',
  EWP_UNKNOWN_RESOURCE: 'no resource at that URI',
  // HTTP servers (http-guard, MCP).
  UNSAFE_BIND: 'a server bound beyond loopback without the host names it must check, or with a weak ingest token',
  // JSON values and graphs (canonical JSON, the adapters' text, the CLI's view files, receipts' graphs).
  LONE_SURROGATE: 'a string holds an unpaired UTF-16 surrogate',
  CYCLE: 'a value that contains itself, or a dependency cycle',
  DUPLICATE_KEY: 'an object with the same key twice',
} as const satisfies ErrorCodeTable;

/** A code of {@link EWP_ERROR_CODES}: the kernel's codes and the ones several packages share. */
export type EwpErrorCode = keyof typeof EWP_ERROR_CODES;

/**
 * A package's own table of error codes: each stable code (UPPER_SNAKE_CASE, unique across the
 * project) and what it means. Declare one `as const satisfies ErrorCodeTable` beside the package's
 * error class, and give the class its codes (`extends EwpError<keyof typeof TABLE>`).
 */
export type ErrorCodeTable = { readonly [code: string]: string };
