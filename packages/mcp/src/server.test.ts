import { MemoryEvidenceStore } from '@ewp/ledger';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import { createEwpMcpServer } from './server.js';

describe('createEwpMcpServer', () => {
  it('builds no Ajv instance: the server never elicits, the only use the SDK has for one', () => {
    const server = createEwpMcpServer({ store: new MemoryEvidenceStore(), roles: { ingest: false } });
    // The SDK keeps its validator in a private field; its default is an AjvJsonSchemaValidator.
    const validator = (server as unknown as { _jsonSchemaValidator: { getValidator: (schema: object) => (input: unknown) => unknown } })._jsonSchemaValidator;
    expect(validator).not.toBeInstanceOf(AjvJsonSchemaValidator);
    // An elicitation answer, were one ever to arrive, is refused whatever it holds.
    expect(validator.getValidator({ type: 'object' })({})).toEqual({ valid: false, data: undefined, errorMessage: 'the EWP server does not elicit input' });
  });
});
