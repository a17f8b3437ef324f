// Deleting a console account: its keys stop working, its sessions end, its scans stay in the public index
// without the owner link, and the account row goes.
import type { StoreRepo } from '../store/repo.js';

export async function deleteAccount(store: StoreRepo, accountId: string, now = new Date()): Promise<void> {
  await store.accounts.deleteAccount(accountId, now);
}
