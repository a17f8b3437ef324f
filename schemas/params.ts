// Parameters shared by tools and routes, each described once.
import { z } from 'zod';

export const VERTICALS = [
  'apparel',
  'beauty',
  'electronics',
  'home_garden',
  'food_beverage',
  'health',
  'sports_outdoors',
  'toys_games',
  'jewelry_accessories',
  'pets',
  'books_media',
  'automotive',
  'other',
] as const;

export const Vertical = z
  .enum(VERTICALS, { error: () => `vertical must be one of: ${VERTICALS.join(', ')}` })
  .describe('Store category, used to compare the store with others of its kind.');

export const Host = z
  .string()
  .min(1)
  .max(260)
  .describe('Store host name, e.g. "shop.example.com" (a URL is accepted and reduced to its host).');

export const StoreUrl = z
  .string()
  .min(1, 'url is required')
  .max(2048, 'url must be at most 2048 characters')
  .describe('Address of the store to audit, e.g. "https://shop.example.com" (https:// is assumed when missing).');

export const ScanId = z.int().min(1).max(Number.MAX_SAFE_INTEGER).describe('Numeric scan id from a scan response.');

export const Limit = z.int().min(1).max(100).default(10).describe('How many stores to return (1–100).');
