/**
 * The one table of error codes. Every error any `@ewp/*` package throws on bad input or broken
 * state carries one of these codes (on an {@link EwpError}); tools, the CLI and the MCP server map
 * codes, never class identities or message text. A new code is added here, with its meaning.
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
  // Other kernel refusals.
  UNKNOWN_POLICY: 'the policy identity is not reference-v2',
  BAD_EVALUATED_AT: 'the evaluation time is missing or not an instant',
  TIMESTAMP_OUT_OF_RANGE: 'a time lies outside years 1-9999',
  INVALID_ACTION: 'an action or risk policy given to mayAct is malformed',
  INVALID_WARRANT: 'a warrant given to mayAct does not carry valid axes',
  // Stores (the EvidenceStore contract).
  EWP_REFUSE_IMMUTABLE_RECORD: 'a snapshot or record id is already bound to other content',
  EWP_REFUSE_MISSING_VIEW: 'no stored snapshot for that proposition or view id',
  EWP_REFUSE_LEDGER_UNAVAILABLE: 'the ledger could not be read or written (closed, busy, damaged, unreachable)',
  EWP_REFUSE_RESERVED_NAMESPACE: 'a write into the namespace the ledger keeps for itself',
  // Tool calls (MCP, AI SDK, LangChain).
  EWP_REFUSE_INGEST_ROLE: 'a write through a read-only tool set or server',
  EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN: 'a trusted origin claimed without attestation',
  EWP_REFUSE_INVALID_EVIDENCE_VIEW: 'a view given to a tool breaks a rule of the protocol',
  EWP_REFUSE_INVALID_ARGUMENTS: 'tool arguments do not match the tool schema',
  EWP_REFUSE_PERSIST_WARRANT: 'an attempt to store a warrant as evidence',
  EWP_REFUSE_CLIENT_SUPPLIED_WARRANT: 'a client passed its own warrant where the server computes it',
  EWP_REFUSE_INLINE_VIEW_FOR_ACTION: 'an action gated on a view the client supplied inline',
  EWP_REFUSE_INVALID_ACTION: 'the action given to the gate is malformed',
  EWP_REFUSE_EVALUATED_AT_SKEW: 'the evaluation time is too far from the server clock',
  EWP_REFUSE_STALE_VIEW_FOR_ACTION: 'the gate was asked about a view older than the latest',
  EWP_REFUSE_CLIENT_RISK_POLICY: 'a client tried to pass its own risk policy',
  EWP_REFUSE_MISSING_CONTENT_HASH: 'an external check without a content hash',
  EWP_REFUSE_MISSING_OBSERVED_AT: 'a record without an observation time',
  EWP_REFUSE_MAY_ACT_WITHOUT_ACTION: 'the gate was called without an action',
  EWP_MISSING_EVALUATED_AT: 'a tool that needs an evaluation time got none',
  EWP_UNKNOWN_TOOL: 'no tool of that name',
  EWP_UNKNOWN_RESOURCE: 'no resource at that URI',
  // HTTP servers (MCP, inspect).
  UNSAFE_BIND: 'a server bound beyond loopback without the host names it must check, or with a weak ingest token',
  USAGE: 'a command line a CLI command cannot run (unknown or conflicting options, a bad value)',
  INSPECT_BAD_REQUEST: 'an inspector API request with a missing or malformed parameter, or naming nothing stored',
  INSPECTOR_ASSETS_MISSING: 'the inspector page is not built into the package',
  // Canonical JSON (EBCJ-1, JCS).
  FLOAT: 'a non-integral number where canonical JSON allows integers only',
  UNSAFE_NUMBER: 'an integer beyond the exactly representable range',
  NON_STRING_KEY: 'an object key that is not a string',
  UNSUPPORTED_TYPE: 'a value JSON cannot carry (undefined, a function, a symbol)',
  LONE_SURROGATE: 'a string holds an unpaired UTF-16 surrogate',
  INTEGER_TOO_LONG: 'an integer literal longer than the reader allows',
  TOO_DEEP: 'nesting deeper than the reader allows',
  CYCLE: 'a value that contains itself, or a dependency cycle',
  SPARSE_ARRAY: 'an array with holes',
  DUPLICATE_KEY: 'an object with the same key twice',
  SEQ_MISMATCH: 'an event appended to a hash-chained log carries a seq other than its position',
  // Receipts, checkpoints, signatures, persistence.
  NAIVE_TIMESTAMP: 'a timestamp without a UTC offset',
  BAD_TIMESTAMP: 'a malformed or out-of-range timestamp',
  DUPLICATE_CHECKPOINT_ID: 'a checkpoint id used twice',
  DUPLICATE_EVIDENCE_IDS: 'an evidence id listed twice in one checkpoint',
  UNKNOWN_DEPENDENCIES: 'a checkpoint depends on checkpoints that do not exist',
  MISSING_DEPENDENCY: 'a graph node names a dependency that is not in the graph',
  UNKNOWN_CHECKPOINT: 'no checkpoint of that id',
  KEY_NOT_ACTIVE: 'the signing key is not active at that time',
  BLANK_ALGORITHM: 'a signature without an algorithm',
  BLANK_KEY_ID: 'a signature without a key id',
  RECEIPT_VERSION: 'an unknown receipt version',
  CANONICALIZATION_VERSION: 'an unknown canonicalization version',
  EMPTY_SIGNATURE: 'an empty signature',
  REPLAY_CONFLICT: 'an operation id reused with another payload',
  BAD_FORMAT: 'a receipt or envelope that is not well formed',
  PERSISTENCE: 'the receipt store could not be read or written',
  PERSISTENCE_INTEGRITY: 'stored receipts fail their integrity check',
  UNSUPPORTED_SCHEMA: 'a receipt store of another schema version',
} as const;

/** Every stable error code of the project. */
export type EwpErrorCode = keyof typeof EWP_ERROR_CODES;
