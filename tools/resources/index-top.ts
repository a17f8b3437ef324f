// The top of the readiness index as Markdown, the first page of GET /index (Accept: text/markdown).
import { INDEX_TOP_SIZE, RESOURCE_SCHEME, defineResource } from './resource.js';

export const indexTop = defineResource({
  name: 'readiness_index',
  title: 'The most agent-ready stores',
  description: `The top ${INDEX_TOP_SIZE} stores of the public readiness index as a Markdown table: rank, score, grade, whether the store is verified agent-ready, category and scan date, each linked to its report.`,
  uri: `${RESOURCE_SCHEME}index`,
  mimeType: 'text/markdown',
  async read({ db, documents }) {
    const [rows, total] = await Promise.all([db.topStores({ limit: INDEX_TOP_SIZE }), db.countStores()]);
    return documents.indexMarkdown({ rows, total, vertical: null });
  },
});
