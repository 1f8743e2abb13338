/**
 * The rule for a principal's or a sub-source's name, apart from the memory tools' arguments (zod) so that
 * the gate's entry (`@ewp/tools/gate`: the claim recorder checks a tool's source name) loads without zod.
 */
import { FIELD_LIMITS } from '@ewp/core';

/** A principal or sub-source name: no `/` (it separates the two), no spaces, at most the table's `kind` length. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:@+-]*$/;

/** Whether `name` can name a principal or a sub-source (`[A-Za-z0-9][A-Za-z0-9._:@+-]*`, at most 128 characters). */
export function isSourceName(name: string): boolean {
  return name.length <= FIELD_LIMITS.kind && NAME.test(name);
}
