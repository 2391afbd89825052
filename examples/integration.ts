/**
 * A partner's integration with the typed client, end to end: an operator creates the app and
 * registers a webhook endpoint (the CLI); the partner submits an application (the client computes
 * the MD5 of the payment password, sends an Idempotency-Key and retries safely), polls its status,
 * receives the `application.submitted` webhook on a local HTTP server and verifies it from the raw
 * body, cancels the application, receives `application.cancelled`, and reconciles with the events
 * list. The last line printed is a JSON summary.
 *
 * From the checkout, with the service running and allowed to deliver to this machine:
 *   WEBHOOK_ALLOW_PRIVATE=true npm start      # terminal 1
 *   npm run example:integration               # terminal 2
 * Environment: BASE (default http://localhost:8080). The operator steps run the CLI on the
 * service's store, so give them the same DATA_DIR or DATABASE_URL as the service, as the admin
 * named in CARDAPPLY_OPERATOR (a store's first admin: `npx cardapply operators create --username ada
 * --role admin`).
 *
 * In your own project: `import { CardApplyClient, verifyWebhook } from '@cardapply/client'`, as here.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  CardApplyClient,
  CardApplyError,
  verifyWebhook,
  type ApplicationInput,
  type WebhookEvent,
} from '@cardapply/client';

const BASE = process.env['BASE'] ?? 'http://localhost:8080';

/** The operator's side: `npx cardapply ...` in the checkout. */
function cardapply(...args: string[]): unknown {
  const cli = fileURLToPath(new URL('../bin/cardapply.js', import.meta.url));
  // A loopback webhook URL is refused unless WEBHOOK_ALLOW_PRIVATE=true, here and in the service.
  const output = execFileSync(process.execPath, [cli, ...args, '--json'], {
    env: { ...process.env, WEBHOOK_ALLOW_PRIVATE: 'true' },
    encoding: 'utf8',
  });
  return JSON.parse(output);
}

/** A mainland identity number for this run (GB 11643), so that the example can run again. */
function identityNumber(birthday: string): string {
  const sequence = String((Math.floor(Math.random() * 500) * 2 + 1) % 1000).padStart(3, '0'); // odd: male
  const body = `440305${birthday.replaceAll('-', '')}${sequence}`;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((total, digit, i) => total + Number(digit) * weights[i]!, 0);
  return body + '10X98765432'[sum % 11]!;
}

const applicant: ApplicationInput = {
  address: '广东省-深圳市-南山区-科技园路1号',
  birthday: '1990-03-07',
  sex: 'M',
  cert_type: '00',
  cert_id: identityNumber('1990-03-07'),
  country: 'CN',
  id_card_img: 'https://img.example.com/a/id-front.jpg',
  id_card_back_img: 'https://img.example.com/a/id-back.jpg',
  cert_start_date: '2015-06-01',
  cert_end_date: '2045-06-01',
  passport_img: 'https://img.example.com/a/passport.jpg',
  email: 'li.lei@example.com',
  mob_no: '13800138000',
  mob_no_of: '+86',
  name: '李雷',
  name_en: 'LI LEI',
  company_name: '深圳市示例科技有限公司',
  office_address: '广东省-深圳市-南山区-科技园路2号',
  office_tel_no: '75586000000',
  office_tel_no_of: '+86',
  position: '04',
  // The client sends its MD5 digest as `pay_pwd`; the password itself never leaves this process.
  payPassword: '704193',
  profession: 'I',
  purpose: ['01', '04'],
  sign_applicant: 'https://img.example.com/a/sign.png',
  wealth_source: ['01'],
  yearly_income: '200000',
  years_of_service: '5',
  consignee: '李雷',
  consignee_mob_no: '13800138000',
  consignee_mob_no_of: '+86',
  consignee_address: '广东省-深圳市-南山区-科技园路1号',
  pay_voucher: 'https://img.example.com/a/voucher.jpg',
};

// 1. The webhook receiver. It verifies each request from its RAW body: a body parsed and serialised
//    again is not the signed bytes. Deliveries are at least once: it deduplicates on webhook-id.
let webhookSecret = '';
const received = new Map<string, WebhookEvent>();
const waiting = new Set<() => void>();
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    try {
      const event = verifyWebhook(Buffer.concat(chunks), request.headers, webhookSecret);
      if (!received.has(event.id)) {
        received.set(event.id, event);
        console.log(`webhook ${event.type} (${event.id}): signature verified`);
      }
      response.writeHead(204).end();
      for (const wake of waiting) wake();
    } catch (error) {
      console.error(String(error));
      response.writeHead(400).end();
    }
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

async function webhook(type: string, serial: string): Promise<WebhookEvent> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const event = [...received.values()].find((e) => e.type === type && e.data.busi_water_no === serial);
    if (event !== undefined) return event;
    if (Date.now() > deadline) throw new Error(`no ${type} webhook within 30 s`);
    await new Promise<void>((resolve) => {
      waiting.add(resolve);
      setTimeout(resolve, 500);
    });
  }
}

try {
  // 2. Operator: the app (its secret is shown once).
  const app = cardapply('apps', 'create', '--name', 'integration example') as {
    app_id: string;
    app_secret: string;
  };

  // 3. The partner's client: it exchanges the secret for tokens and renews them by itself.
  const client = new CardApplyClient({
    baseUrl: BASE,
    appId: app.app_id,
    appSecret: app.app_secret,
    onRetry: ({ path, retry, delayMs, reason }) =>
      console.log(`retry ${retry} of ${path} in ${delayMs} ms: ${reason.message}`),
  });

  // The partner registers its own webhook endpoint (its signing secret is shown this once).
  const endpoint = await client.registerWebhook({ url: hookUrl });
  webhookSecret = endpoint.secret;
  console.log(`app ${app.app_id}, webhooks to ${hookUrl} (${endpoint.id})`);

  // 4. Check, then submit with the partner's own order number: one Idempotency-Key per
  //    submission, reused by the client's retries; the order number finds it again at any time.
  const orderNo = `ORDER-${Date.now()}`;
  await client.validate(applicant);
  const { busi_water_no: serial } = await client.submit({ ...applicant, external_id: orderNo });
  console.log(`submitted ${serial} (${(await client.query({ external_id: orderNo })).busi_water_no})`);

  // 5. Poll the status until the webhook has arrived (the webhook alone would do).
  const statuses: string[] = [];
  let submitted: WebhookEvent | undefined;
  const pending = webhook('application.submitted', serial).then((event) => (submitted = event));
  while (submitted === undefined) {
    const { status } = await client.query(serial);
    statuses.push(status);
    console.log(`status: ${status}`);
    await Promise.race([pending, new Promise((resolve) => setTimeout(resolve, 1000))]);
  }

  // 6. Cancel; a second cancel is refused with a typed error.
  const cancelled = await client.cancel(serial, { reason: 'The customer withdrew.' });
  statuses.push(cancelled.status);
  console.log(`status: ${cancelled.status}`);
  try {
    await client.cancel(serial);
  } catch (error) {
    if (!(error instanceof CardApplyError)) throw error;
    console.log(`cancel again: HTTP ${error.status}, code ${error.code}: ${error.msg}`);
  }
  await webhook('application.cancelled', serial);

  // 7. Reconcile: the events list holds the same objects as the webhook bodies.
  const events: WebhookEvent[] = [];
  for await (const event of client.listAllEvents({ busi_water_no: serial })) events.push(event);
  const missed = events.filter((event) => !received.has(event.id));
  console.log(
    `events: ${events.map((e) => `${e.data.sequence} ${e.type}`).join(', ')}; missed: ${missed.length}`,
  );

  console.log(
    JSON.stringify({
      busi_water_no: serial,
      statuses,
      webhooks: [...received.values()].map((e) => e.type),
      events: events.map((e) => e.type),
    }),
  );
} finally {
  receiver.close();
}
