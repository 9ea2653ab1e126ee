// The editor's copy of unsaved text in this browser (localStorage, article-editor.tsx): kept for a
// session that ends mid-edit, restored at its author's next sign-in (SECURITY.md 'Sign-in and
// sessions'). Issue 25: it was offered to whoever signed in next on the same browser. Each copy is
// now keyed by its author's user id, so it is offered to that author alone, and signing out
// removes them all (here with JavaScript; the logout answer's `Clear-Site-Data` without it).

const PREFIX = "newsroom-draft:";

/** Where the browser keeps one author's unsaved text of one article (`new` for a new article). */
export const localDraftKey = (userId: string, draftKey: string) => `${PREFIX}${userId}:${draftKey}`;

/** Removes every kept copy from this browser, whoever wrote it (sign-out). */
export function clearLocalDrafts(): void {
  try {
    for (const key of Object.keys(window.localStorage)) if (key.startsWith(PREFIX)) window.localStorage.removeItem(key);
  } catch {
    // Storage may be unavailable (private mode): nothing was kept then.
  }
}
