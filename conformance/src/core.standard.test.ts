import { coreEvaluator } from './core-evaluator.js';
import { runEvaluatorConformance } from './evaluator-suite.js';

await runEvaluatorConformance(coreEvaluator);
