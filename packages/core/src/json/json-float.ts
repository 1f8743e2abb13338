/**
 * A JSON float token whose value a JavaScript number cannot mark as a float: an integral value
 * (`5.0`, `1e3`) or a non-finite one (`1e400`, `NaN`, `Infinity`). Python's decoder keeps
 * `5` (int) and `5.0` (float) apart, and the reference refuses or converts them differently.
 */
export class JsonFloat {
  constructor(readonly value: number) {}
}
