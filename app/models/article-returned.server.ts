import { db } from "../../db/index";

// Issue 31 item 7: "повернуто вам". A reporter's dashboard lists their drafts the desk sent back,
// newest return first, each with the desk's note (the newest desk note of the article is a
// return). Once the author submits again the newest note is a submit and the article leaves the list.

export interface ReturnedArticle {
  id: string;
  title: string;
  note: string | null;
  returned_at: string;
  by: string | null;
}

/** The author's drafts whose newest desk note is a return, newest first. */
export async function listReturnedTo({ authorId, limit = 10 }: { authorId: string; limit?: number }): Promise<ReturnedArticle[]> {
  const rows = await db
    .selectFrom("article_desk_notes as n")
    .innerJoin("articles as a", "a.id", "n.article_id")
    .leftJoin("users as u", "u.id", "n.user_id")
    .select(["a.id", "a.title", "n.note", "n.created_at", "u.name", "u.username"])
    .where("a.author_id", "=", authorId)
    .where("a.status", "=", "draft")
    .where("n.kind", "=", "return")
    .where((eb) =>
      eb(
        "n.id",
        "=",
        eb
          .selectFrom("article_desk_notes as latest")
          .select((e) => e.fn.max("latest.id").as("id"))
          .whereRef("latest.article_id", "=", "a.id"),
      ),
    )
    .orderBy("n.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, title: r.title, note: r.note, returned_at: r.created_at, by: r.name || r.username || null }));
}
