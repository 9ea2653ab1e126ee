import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { CommentsModeSchema, setCommentsMode } from "~/models/comment.server";
import { requireRole } from "~/services/auth.server";
import { redirectWithFlash } from "~/services/flash.server";
import { DomainError } from "~/utils/errors";
import { EDITORS } from "~/utils/roles";

// POST /admin/comments/mode: the editor's comments switch (components/newsroom/comments-mode-control.tsx).

const ModeFormSchema = z.object({ article_id: z.string().uuid(), comments_mode: CommentsModeSchema });

export async function loader() {
  return redirect("/admin/comments");
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireRole(request, EDITORS);
  const form = await request.formData();
  const parsed = ModeFormSchema.safeParse({ article_id: form.get("article_id"), comments_mode: form.get("comments_mode") });
  if (!parsed.success) throw new Response("Перевірте форму", { status: 400 });
  const { article_id: articleId, comments_mode: mode } = parsed.data;
  try {
    await setCommentsMode({ articleId, mode, actor });
  } catch (error) {
    if (error instanceof DomainError && error.status === 404) throw new Response("Статтю не знайдено", { status: 404 });
    throw error;
  }
  const label = { open: "відкриті", closed: "закриті", hidden: "приховані" }[mode];
  return redirectWithFlash(request, `/admin/articles/edit/${articleId}`, `Коментарі до статті: ${label}`);
}
