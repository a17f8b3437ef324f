// The pull request's one comment from the action: found by a hidden marker among the pull request's comments and
// edited in place on every run, created only when there is none yet. GitHub's REST API through Octokit.
import type { getOctokit } from '@actions/github';

type Octokit = ReturnType<typeof getOctokit>;

export const COMMENT_MARKER = '<!-- store-readiness:pull-request-comment -->';

export interface PullRequest {
  owner: string;
  repo: string;
  number: number;
}

/** Creates the comment, or updates the one an earlier run left; answers which happened and the comment's address. */
export async function upsertComment(octokit: Octokit, pr: PullRequest, body: string): Promise<{ action: 'created' | 'updated'; url: string }> {
  const text = `${COMMENT_MARKER}\n${body}`;
  const comments = await octokit.paginate(octokit.rest.issues.listComments, { owner: pr.owner, repo: pr.repo, issue_number: pr.number, per_page: 100 });
  const ours = comments.find((c) => c.body?.startsWith(COMMENT_MARKER));
  if (ours) {
    const { data } = await octokit.rest.issues.updateComment({ owner: pr.owner, repo: pr.repo, comment_id: ours.id, body: text });
    return { action: 'updated', url: data.html_url };
  }
  const { data } = await octokit.rest.issues.createComment({ owner: pr.owner, repo: pr.repo, issue_number: pr.number, body: text });
  return { action: 'created', url: data.html_url };
}
