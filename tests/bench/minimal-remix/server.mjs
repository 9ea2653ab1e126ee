// The minimal Remix page's server (tests/bench/run.ts builds the app first): Express, compression
// and the Remix handler, like the site's own server without its middleware.
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const build = await import(new URL("./build/index.js", import.meta.url).href);
const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use("/build", express.static(new URL("./public/build", import.meta.url).pathname, { immutable: true, maxAge: "1y" }));
app.get("/healthz", (_req, res) => res.json({ status: "ok" }));
app.all("*", createRequestHandler({ build, mode: "production" }));
app.listen(Number(process.env.PORT), "127.0.0.1");
