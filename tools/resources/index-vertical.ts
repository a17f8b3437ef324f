// The top of the readiness index within one store category, as Markdown.
import { z } from 'zod';
import { Vertical } from '../../schemas/params.js';
import { INDEX_TOP_SIZE, RESOURCE_SCHEME, defineResourceTemplate } from './resource.js';

export const indexOfVertical = defineResourceTemplate({
  name: 'readiness_index_of_category',
  title: 'The most agent-ready stores of one category',
  description: `The top ${INDEX_TOP_SIZE} stores of one category (apparel, beauty, pets, ...) in the public readiness index, as a Markdown table.`,
  uriTemplate: `${RESOURCE_SCHEME}index/{vertical}`,
  variables: z.object({ vertical: Vertical }),
  complete: { vertical: 'vertical' },
  mimeType: 'text/markdown',
  async read({ vertical }, { db, documents }) {
    const [rows, total] = await Promise.all([db.topStores({ limit: INDEX_TOP_SIZE, vertical }), db.countStores(vertical)]);
    return documents.indexMarkdown({ rows, total, vertical });
  },
});
