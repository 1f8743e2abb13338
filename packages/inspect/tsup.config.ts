import { ewpTsup } from '../../tsup.shared.js';

// dist/web is vite's (it empties it on each build): tsup leaves it, so a failed tsup step never
// leaves the inspector without its page.
export default ewpTsup({ clean: ['!web/**'] });
