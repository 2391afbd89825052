import type { components, operations, paths } from './schema.ts';

/**
 * The client's types, all derived from the generated `schema.ts`: when the service's document
 * changes, `npm run openapi` regenerates it and these follow (or stop compiling, which a test sees).
 */

export type Operation = keyof operations;

type JsonRequest<T> = T extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type JsonSuccess<T> = T extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } }
  ? D
  : never;

/** The body of an operation as the service takes it. */
export type RequestOf<O extends Operation> = JsonRequest<operations[O]>;
/** The `data` of an operation's success envelope. */
export type ResultOf<O extends Operation> = JsonSuccess<operations[O]>;
/** A request as the client's methods take it: the client fills in `app_id` and `timestamp`. */
export type InputOf<O extends Operation> = Omit<RequestOf<O>, 'app_id' | 'timestamp'>;

/** The partner path whose POST is the operation `O`. */
export type PathOf<O extends Operation> = {
  [P in keyof paths]: paths[P] extends { post: operations[O] } ? P : never;
}[keyof paths];

/**
 * An application to submit or validate. Give `pay_pwd` (the MD5 digest, 32 hex digits) or
 * `payPassword` (the plain payment password: the client sends its MD5 digest, never the password).
 */
export type ApplicationInput = Omit<InputOf<'submitApplication'>, 'pay_pwd'> &
  ({ pay_pwd: string; payPassword?: never } | { payPassword: string; pay_pwd?: never });

export type Submitted = ResultOf<'submitApplication'>;
/** The partner's view of one application: state, reason, masked card number and history. */
export type ApplicationStatus = ResultOf<'queryApplication'>;
export type ListFilter = InputOf<'listApplications'>;
export type ApplicationPage = ResultOf<'listApplications'>;
export type CodeTables = ResultOf<'listCodes'>;
export type EventFilter = InputOf<'listEvents'>;
export type EventPage = ResultOf<'listEvents'>;
export type AccessToken = ResultOf<'exchangeToken'>;
/** The fields an operator asked for, as the amend takes them (`payPassword` as for the submit). */
export type AmendFields = Partial<Omit<ApplicationInput, 'external_id'>>;
/** A webhook endpoint of the app, as the self-service routes show it. */
export type WebhookEndpoint = ResultOf<'showWebhook'>;
export type WebhookDelivery = ResultOf<'listWebhookDeliveries'>['items'][number];
/** The body of a webhook, and an item of the events list. */
export type WebhookEvent = components['schemas']['WebhookEvent'];

type ErrorEnvelope = operations['submitApplication']['responses'][422]['content']['application/json'];
/** One problem of a rejected request: the field (as a path), the catalogue code and the message. */
export type FieldError = NonNullable<Extract<ErrorEnvelope['data'], { errors?: unknown }>['errors']>[number];
