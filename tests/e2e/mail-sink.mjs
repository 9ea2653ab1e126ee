// A real SMTP server for the e2e run (issue 28): Playwright starts it beside the site (see
// playwright.config.ts, `webServer`), the site sends its mail here through nodemailer, and each
// message is written whole to MAIL_SINK_DIR as an .eml file that the specs read (mail.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";

const dir = process.env.MAIL_SINK_DIR;
const port = Number(process.env.MAIL_SINK_PORT);
if (!dir || !port) throw new Error("MAIL_SINK_DIR and MAIL_SINK_PORT are required");
mkdirSync(dir, { recursive: true });
let count = 0;

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onData(stream, _session, callback) {
    const chunks = [];
    stream.on("data", (c) => chunks.push(c));
    stream.on("end", () => {
      count += 1;
      writeFileSync(join(dir, `${Date.now()}-${String(count).padStart(5, "0")}.eml`), Buffer.concat(chunks));
      callback();
    });
  },
});
server.listen(port, "127.0.0.1");
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => server.close(() => process.exit(0)));
