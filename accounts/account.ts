// Deleting a console account: its keys stop working, its sessions end, its scans stay in the public index
// without the owner link, its store claims, monitors and webhook endpoints go, and the account row goes.
import type { Repository } from '../db/repo.js';

export async function deleteAccount(db: Repository, accountId: string, now = new Date()): Promise<void> {
  await db.monitoring.removeAccount(accountId); // first: nothing more is scanned or sent for it
  await db.accounts.deleteAccount(accountId, now);
}
