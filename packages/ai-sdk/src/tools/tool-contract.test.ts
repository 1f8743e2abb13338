/** The tool-contract suite through AI SDK `generateText`: a mock model emits each call. */
import { runToolContract } from '@ewp/tools/testing';
import { aiSdkContractBinding } from '../../test/contract-binding.js';

runToolContract(aiSdkContractBinding);
