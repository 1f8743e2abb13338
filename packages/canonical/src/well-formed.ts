/** The one well-formedness rule (no lone surrogate) is the kernel's byte rule; re-exported where canonical JSON needs it. */
export { isWellFormed } from '@ewp/core';
