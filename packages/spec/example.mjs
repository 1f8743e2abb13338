import { AXIS_VALUES, DECISIONS, EPISTEMIC_CLASSES, FIELD_LIMITS, POLARITIES } from '@ewp/spec';

console.log(AXIS_VALUES.acceptance); // [ 'UNACCEPTED', 'TENTATIVE', 'ACCEPTED' ]
console.log(DECISIONS); // [ 'DENY', 'REQUIRE_CONFIRMATION', 'MAY_ACT' ]
console.log(POLARITIES, EPISTEMIC_CLASSES);
console.log(`an id may hold ${FIELD_LIMITS.id} characters`);
