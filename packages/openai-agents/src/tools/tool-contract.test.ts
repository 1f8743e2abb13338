/** The tool-contract suite through the Agents SDK runner: a scripted model emits each call. */
import { runToolContract } from '@ewp/tools/testing';
import { openAiAgentsContractBinding } from '../../test/contract-binding.js';

runToolContract(openAiAgentsContractBinding);
