// Is there an RFC 9727 API catalog at /.well-known/api-catalog (a linkset of the store's public APIs)? The
// application/linkset+json media type is expected; JSON with a linkset array under another type still passes.
import { defineCheck } from '../check.js';
import { describe } from '../evidence.js';
import { jsonOf, responseOf } from '../../documents/resources.js';
import { isObject } from '../../documents/protocol-documents.js';

export default defineCheck({
  id: 'protocol_api_catalog',
  label: 'API catalog (RFC 9727)',
  title: 'An API catalog lists your public APIs',
  failureTitle: 'Publish an API catalog',
  why: 'An API catalog is the standard place where an agent discovers your storefront, UCP and MCP APIs and their descriptions.',
  how: 'Serve `/.well-known/api-catalog` as `application/linkset+json` listing your public APIs (storefront/UCP REST, MCP) with `service-desc` links to their OpenAPI/OpenRPC documents, and advertise it with `Link: …; rel="api-catalog"`.',
  fix: {
    plain: 'Publish one list of the services your store offers to machines, so an assistant finds them all in one place.',
    effort: 'about an hour',
    steps: {
      shopify: 'This needs a developer able to serve a file at your domain’s well-known addresses, through a proxy or an app.',
      woocommerce: 'Upload the file to the root of the site, served as shown in the detail below.',
      bigcommerce: 'This needs a developer able to serve a file at your domain’s well-known addresses.',
      custom: 'Serve the catalogue file listing your services; the detail is below.',
    },
  },
  run(a) {
    const res = responseOf(a.apiCatalog);
    const doc = jsonOf(a.apiCatalog, a.apiCatalogJson);
    if (!res || !isObject(doc) || !Array.isArray(doc.linkset)) {
      return { status: 'fail', evidence: `API catalog ${describe(a.apiCatalog)}: no JSON linkset.` };
    }
    const type = res.contentType === 'application/linkset+json' ? '' : ` (served as ${res.contentType || 'no content type'}; application/linkset+json expected)`;
    return { status: 'pass', evidence: `${res.url} → ${res.status}: linkset with ${doc.linkset.length} entr${doc.linkset.length === 1 ? 'y' : 'ies'}${type}.` };
  },
});
