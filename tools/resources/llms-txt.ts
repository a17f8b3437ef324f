// The service's llms.txt, as GET /llms.txt serves it.
import { RESOURCE_SCHEME, defineResource } from './resource.js';

export const llmsTxtResource = defineResource({
  name: 'llms_txt',
  title: 'How agents use this service (llms.txt)',
  description:
    'The site summary for agents: the MCP tools, resources and prompts, the REST endpoints with their limits, and the machine-readable descriptions, with links.',
  uri: `${RESOURCE_SCHEME}llms.txt`,
  mimeType: 'text/plain',
  read: async ({ documents }) => documents.llmsTxt(),
});
