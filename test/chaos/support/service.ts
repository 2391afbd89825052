import { readFileSync } from 'node:fs';
import { PATHS } from '../../../src/http/paths.ts';
import type { ServiceProcess } from '../../helpers/process.ts';
import { nowSeconds } from '../../helpers/service.ts';
import { send } from './http.ts';

/** A token for an app over HTTP, as a partner gets one. */
export async function tokenFor(
  baseUrl: string,
  app: { app_id: string; app_secret: string },
): Promise<string> {
  const reply = await send(baseUrl, PATHS.token, {
    body: { app_id: app.app_id, app_secret: app.app_secret, timestamp: nowSeconds() },
  });
  if (reply.status !== 200) throw new Error(`token exchange failed: ${reply.status} ${reply.text}`);
  return (reply.json as { data: { access_token: string } }).data.access_token;
}

/**
 * Reads every serial back over HTTP with a few requests at once; returns the serials that did not
 * come back as themselves with code 0.
 */
export async function unreadable(
  baseUrl: string,
  token: string,
  appId: string,
  serials: readonly string[],
  concurrency = 8,
): Promise<string[]> {
  const failed: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < serials.length) {
      const serial = serials[next++]!;
      const reply = await send(baseUrl, PATHS.query, {
        body: { app_id: appId, timestamp: nowSeconds(), busi_water_no: serial },
        token,
      });
      const data = (reply.json as { code?: number; data?: { busi_water_no?: string } } | undefined) ?? {};
      if (reply.status !== 200 || data.code !== 0 || data.data?.busi_water_no !== serial) failed.push(serial);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return failed;
}

/** Resident memory of a process in bytes (Linux), or undefined when it cannot be read. */
export function residentBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+([0-9]+) kB/.exec(status);
    return match === null ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}

export function isAlive(service: ServiceProcess): boolean {
  return service.child.exitCode === null && service.child.signalCode === null;
}

export async function killHard(service: ServiceProcess): Promise<void> {
  if (isAlive(service)) service.child.kill('SIGKILL');
  await service.exited;
}

export async function stopGracefully(service: ServiceProcess): Promise<number | null> {
  if (isAlive(service)) service.child.kill('SIGTERM');
  return service.exited;
}
