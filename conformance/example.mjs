import { loadFixtures, loadInvalidViews } from '@ewp/conformance';

const fixtures = loadFixtures();
console.log(fixtures.length, 'fixtures,', loadInvalidViews().length, 'invalid views'); // 52 fixtures, 35 invalid views
console.log(fixtures[0].name, fixtures[0].expected.acceptance); // each with its expected five axes
