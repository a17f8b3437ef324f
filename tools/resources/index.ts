// Every MCP resource and resource template, in the order clients list them. One line each.
import type { AnyResourceTemplate, ResourceDef } from './resource.js';
import { checkCatalogue } from './check-catalogue.js';
import { indexTop } from './index-top.js';
import { llmsTxtResource } from './llms-txt.js';
import { storeReport } from './store-report.js';
import { storeReportJson } from './store-report-json.js';
import { indexOfVertical } from './index-vertical.js';

export const RESOURCES: ResourceDef[] = [checkCatalogue, indexTop, llmsTxtResource];

export const RESOURCE_TEMPLATES: AnyResourceTemplate[] = [storeReport, storeReportJson, indexOfVertical];
