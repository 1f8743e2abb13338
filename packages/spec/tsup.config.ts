import { ewpTsup } from '../../tsup.shared.js';

export default ewpTsup();
