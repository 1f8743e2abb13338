/** The tool-contract suite through ADK's InMemoryRunner: a scripted model emits each call. */
import { runToolContract } from '@ewp/tools/testing';
import { adkContractBinding } from '../../test/contract-binding.js';

runToolContract(adkContractBinding);
