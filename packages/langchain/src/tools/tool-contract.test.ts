/** The tool-contract suite through LangGraph: each call is an AIMessage tool call run by a ToolNode. */
import { runToolContract } from '@ewp/tools/testing';
import { langGraphContractBinding } from '../../test/contract-binding.js';

runToolContract(langGraphContractBinding);
