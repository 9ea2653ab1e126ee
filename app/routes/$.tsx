// Any other path: 404 (the public-site issue turns this into the home-style fallback of SPEC §2).
export async function loader() {
  throw new Response("Not found", { status: 404 });
}

export default function NotFound() {
  return null;
}
