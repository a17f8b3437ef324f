// Every MCP prompt, in the order clients list them. One line each.
import type { AnyPrompt } from './prompt.js';
import { improveStoreReadiness } from './improve-store-readiness.js';
import { compareStores } from './compare-stores.js';

export const PROMPTS: AnyPrompt[] = [improveStoreReadiness, compareStores];
