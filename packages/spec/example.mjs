import { AXIS_VALUES, DECISIONS, EPISTEMIC_CLASSES, FIELD_LIMITS, POLARITIES } from '@ewp/spec';

console.log(AXIS_VALUES.acceptance);
console.log(DECISIONS);
console.log(POLARITIES, EPISTEMIC_CLASSES);
console.log(`an id may hold ${FIELD_LIMITS.id} characters`);
