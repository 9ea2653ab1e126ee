import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

// A real SMTP server on 127.0.0.1 inside the test process (issue 28 item 4): the site sends to it
// through nodemailer as it would to any mail server, and the tests read what arrived.

export interface Received {
  to: string[];
  raw: string;
  mail: ParsedMail;
}

export interface TestSmtp {
  url: string;
  port: number;
  messages: Received[];
  /** Called with each message as it arrives, before the server answers 250 (a test may kill the sender there). */
  onMessage?: (message: Received) => void | Promise<void>;
  /** While set, every recipient is refused with this reply (a mail server that refuses). */
  refuse?: string;
  /** Resolves once `count` messages have arrived in all. */
  waitFor: (count: number, timeoutMs?: number) => Promise<Received[]>;
  close: () => Promise<void>;
}

/** Starts the SMTP server on a free port (or `port`). */
export async function startSmtp({ port = 0 }: { port?: number } = {}): Promise<TestSmtp> {
  const state: TestSmtp = {
    url: "",
    port: 0,
    messages: [],
    waitFor: async (count, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (state.messages.length < count) {
        if (Date.now() > deadline) throw new Error(`only ${state.messages.length} of ${count} emails arrived in ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return state.messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (state.refuse) return callback(Object.assign(new Error(state.refuse), { responseCode: 451 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const message = { to: session.envelope.rcptTo.map((r) => r.address), raw, mail: await simpleParser(raw) };
        state.messages.push(message);
        try {
          await state.onMessage?.(message);
        } finally {
          callback();
        }
      });
    },
  });
  server.on("error", () => undefined);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  state.port = (server.server.address() as { port: number }).port;
  state.url = `smtp://127.0.0.1:${state.port}`;
  return state;
}

/** The messages sent to one address. */
export const messagesTo = (smtp: TestSmtp, address: string) => smtp.messages.filter((m) => m.to.includes(address));

/** The first http(s) link in a message's plain text that contains `part`. */
export function linkIn(message: Received, part: string): string {
  const link = (message.mail.text ?? "").match(/https?:\/\/\S+/g)?.find((l) => l.includes(part));
  if (!link) throw new Error(`no link with ${part} in:\n${message.mail.text}`);
  return link;
}
