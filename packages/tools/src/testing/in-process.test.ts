import { inProcessBinding, runToolContract } from './index.js';

runToolContract(inProcessBinding());
