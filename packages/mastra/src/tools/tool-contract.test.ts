/** The tool-contract suite through Mastra `Agent.generate`: a mock model emits each call. */
import { runToolContract } from '@ewp/tools/testing';
import { mastraContractBinding } from '../../test/contract-binding.js';

runToolContract(mastraContractBinding);
