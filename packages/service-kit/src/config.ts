import { accessSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceName } from '@hs/contracts';
import { z } from 'zod';
import { errnoOf, writableDirProblem } from './writable-dir.ts';

export const APP_ENVS = ['dev', 'test', 'staging', 'production'] as const;
export type AppEnv = (typeof APP_ENVS)[number];
export const isProductionLike = (env: AppEnv) => env === 'staging' || env === 'production';

export const SERVICES: readonly ServiceName[] = ServiceName.options;

export const DEFAULT_PORTS: Record<ServiceName, number> = {
  gateway: 8080,
  orchestrator: 8081,
  wardrobe: 8082,
  commerce: 8083,
  vto: 8084,
  cartprep: 8085,
  'browser-bridge': 8086,
  'artifacts-audit': 8087,
};

/** `browser-bridge` → `BROWSER_BRIDGE`, the prefix of its `_BASE_URL` and `_INTERNAL_TOKEN`. */
export const envPrefix = (service: ServiceName) => service.toUpperCase().replace(/-/g, '_');

/** Thrown when the environment is wrong; the process prints its one-line message and exits. */
export class ConfigError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ConfigError';
  }
}

const PREFIX = 'Configuration error: ';

/** The problems found by the checks of the configuration being loaded (see collectConfigProblems). */
let collecting: string[] | null = null;

/**
 * A setting that is wrong given the others (a development switch in production, a backend
 * without its bucket). Inside collectConfigProblems it is noted and the loading goes on, so that
 * the boot names every such setting at once; outside one it throws ConfigError at once.
 */
export function configProblem(message: string): void {
  if (collecting) collecting.push(message);
  else throw new ConfigError(`${PREFIX}${message}`);
}

/**
 * Loads a configuration, then throws one ConfigError naming every problem its checks found
 * (`;`-separated), so an operator fixes them in one restart. Values of the wrong form (the
 * schema's) are named together already; the checks that compare settings come after them.
 */
export function collectConfigProblems<T>(load: () => T): T {
  const outer = collecting;
  const found: string[] = [];
  collecting = found;
  let result: T;
  try {
    result = load();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    found.push(err.message.replace(PREFIX, ''));
  } finally {
    collecting = outer;
  }
  if (found.length > 0) throw new ConfigError(`${PREFIX}${found.join('; ')}`);
  return result!;
}

export const envBool = (fallback: boolean) =>
  z.stringbool({ truthy: ['true', '1', 'yes', 'on'], falsy: ['false', '0', 'no', 'off'] }).default(fallback);
/** Whole numbers and numbers with a fraction as an operator writes them: decimal digits only. */
const WHOLE_TEXT = /^-?\d+$/;
const DECIMAL_TEXT = /^-?\d+(?:\.\d+)?$/;

/**
 * A numeric setting: plain decimal text (digits, an optional leading `-`, and a decimal point when
 * `number` allows fractions) read by `number`, which holds the setting's bounds. JavaScript's
 * `Number()` (what `z.coerce.number()` uses) also reads hex (`0x2500`), exponents (`9.52e3`) and
 * surrounding spaces, so a typo became another value instead of stopping the boot.
 */
export function envNumber<T extends z.ZodNumber>(number: T) {
  const whole = number.format === 'safeint';
  return z
    .string()
    .regex(
      whole ? WHOLE_TEXT : DECIMAL_TEXT,
      whole
        ? 'must be a whole number in plain decimal digits (no "+", hex, exponent or spaces)'
        : 'must be a number in plain decimal notation, such as 30 or 2.5 (no "+", hex, exponent or spaces)',
    )
    .transform(Number)
    .pipe(number);
}
export const envList = () =>
  z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );

/** A host name label: letters, digits and inner hyphens, 1 to 63 characters. */
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** `shop.example.com`, or `*.example.com` / `.example.com` (the same: a domain covers its subdomains). */
function isDomainEntry(entry: string): boolean {
  const host = entry.replace(/^\*?\./, '');
  return host.length <= 253 && host.split('.').every((label) => HOST_LABEL.test(label));
}

/**
 * A comma-separated list of bare domain names (an allowlist of merchant domains): a URL, a port or
 * a path never matches a host, so the list would refuse everything while the boot said nothing.
 */
export const envDomainList = () =>
  envList().superRefine((entries, ctx) => {
    const bad = entries.find((entry) => !isDomainEntry(entry));
    if (bad !== undefined)
      ctx.addIssue({
        code: 'custom',
        message: `must be comma-separated bare domain names such as shop.example.com or *.example.com (no scheme, port, path or trailing dot); ${JSON.stringify(bad)} is not one`,
      });
  });

/**
 * A URL services make HTTP requests to: http or https only (`fetch` and undici refuse other
 * schemes only when the request is made, as a 502 at run time).
 */
export const httpUrl = () =>
  z.url({
    protocol: /^https?$/,
    error: (issue) =>
      /^https?:\/\//i.test(String(issue.input))
        ? 'is not a valid URL (check the host and that the port is 1-65535)'
        : 'must be an http or https URL',
  });

/** A browser origin as a browser sends it: `https://app.example.com`, `http://127.0.0.1:5173`. */
function isOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return /^https?:$/.test(url.protocol) && url.origin === value;
}

/** A secret: development default allowed only outside staging/production, 32+ bytes there. */
function secret(appEnv: AppEnv, devDefault: string) {
  if (!isProductionLike(appEnv)) return z.string().min(1).default(devDefault);
  return z
    .string({ error: 'is required in staging and production' })
    .refine((v) => Buffer.byteLength(v) >= 32, 'must be at least 32 bytes in staging and production')
    .refine((v) => !v.startsWith('dev-'), 'must not be a development placeholder in staging and production');
}

export type Peer = { baseUrl: string; token: string };

function baseShape(service: ServiceName, appEnv: AppEnv) {
  const peers: Record<string, z.ZodType> = {};
  for (const s of SERVICES) {
    peers[`${envPrefix(s)}_BASE_URL`] = httpUrl().default(`http://127.0.0.1:${DEFAULT_PORTS[s]}`);
    peers[`${envPrefix(s)}_INTERNAL_TOKEN`] = secret(appEnv, `dev-internal-token-${s}`);
  }
  return {
    APP_ENV: z.enum(APP_ENVS).default('dev'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: envNumber(z.number().int().min(0).max(65535)).default(DEFAULT_PORTS[service]),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // Read by the logger (logger.ts): `json` always writes JSON lines, `pretty` (as unset) only on a TTY.
    LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
    CORS_ORIGINS: envList().refine((origins) => origins.every(isOrigin), {
      error:
        'must be comma-separated origins such as https://app.example.com (scheme, host, optional port; no path)',
    }),
    BODY_LIMIT_BYTES: envNumber(z.number().int().positive()).default(1_048_576),
    // A request slower to arrive is cut (408); 0 or less would switch that off without a word.
    REQUEST_TIMEOUT_SECONDS: envNumber(z.number().positive().max(3600)).default(30),
    SHUTDOWN_GRACE_SECONDS: envNumber(z.number().min(0).max(3600)).default(10),
    INTERNAL_API_TIMEOUT_SECONDS: envNumber(z.number().positive().max(300)).default(10),
    // How far this host's clock may run behind a caller's before a request read after its caller
    // gave up still runs (deadline.ts): 0 for hosts kept in step by NTP.
    CLOCK_SKEW_ALLOWANCE_MS: envNumber(z.number().int().min(0).max(10_000)).default(0),
    PUBLIC_BASE_URL: httpUrl().optional(),
    PERSISTENCE_BACKEND: z.enum(['inmemory', 'sqlite', 'docstore']).default('inmemory'),
    DATA_DIR: z.string().min(1).default('./.data'),
    // A cap on the sqlite file (MB; unset: none): the service answers 503 and /ready turns 503
    // when it is reached, before the disk itself fills.
    SQLITE_MAX_SIZE_MB: envNumber(z.number().positive()).optional(),
    FIRESTORE_PROJECT_ID: z.string().optional(),
    FIRESTORE_DATABASE_ID: z.string().optional(),
    ...peers,
  };
}

type BaseShape = ReturnType<typeof baseShape>;
type BaseParsed = { [K in keyof BaseShape]: z.infer<BaseShape[K]> };

export type BaseConfig = {
  service: ServiceName;
  appEnv: AppEnv;
  host: string;
  port: number;
  logLevel: string;
  corsOrigins: string[];
  bodyLimit: number;
  requestTimeoutMs: number;
  shutdownGraceMs: number;
  internalTimeoutMs: number;
  /** See CLOCK_SKEW_ALLOWANCE_MS (deadline.ts). */
  clockSkewAllowanceMs: number;
  /**
   * Where clients reach the API (the gateway, from outside): every URL handed out is built on it,
   * never on an internal address. No trailing slash.
   */
  publicBaseUrl: string;
  persistence: {
    backend: 'inmemory' | 'sqlite' | 'docstore';
    dataDir: string;
    sqliteMaxSizeBytes: number | undefined;
    firestoreProjectId: string | undefined;
    firestoreDatabaseId: string | undefined;
  };
  /** This service's own internal token: what callers must present. */
  internalToken: string;
  peers: Record<ServiceName, Peer>;
  env: AppEnv;
};

/** A setting whose value must never reach a log: a token, a secret or a key (not `*_TOKEN_TTL_SECONDS`). */
const isSecretName = (name: string) =>
  /(?:TOKEN|SECRET|KEY|PASSWORD)$/.test(name) && !name.startsWith('REQUIRE_');

/** A value as a boot message may show it: a password written into a URL is masked. */
export const shownValue = (value: string) => {
  // Whatever sits between the scheme and the last `@` is a user and password, whatever it holds.
  const at = value.lastIndexOf('@');
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0];
  return JSON.stringify(scheme && at > scheme.length ? `${scheme}***${value.slice(at)}` : value);
};

function formatIssue(issue: z.core.$ZodIssue, env: NodeJS.ProcessEnv): string {
  const name = issue.path.join('.') || '(environment)';
  const value = typeof issue.path[0] === 'string' ? env[issue.path[0]] : undefined;
  const shown = value === undefined ? 'unset' : isSecretName(name) ? 'set' : shownValue(value);
  return `${name} ${issue.message} (value: ${shown})`;
}

/** Every wrong setting in one message, so an operator fixes them in one restart, not one each. */
function formatIssues(issues: readonly z.core.$ZodIssue[], env: NodeJS.ProcessEnv): string {
  return `Configuration error: ${issues.map((issue) => formatIssue(issue, env)).join('; ')}`;
}

const configVariables = new Map<ServiceName, string[]>();

/**
 * The environment variables a service's configuration declares, as seen by its last
 * `loadConfig`: deployment files (compose, manifests) are checked against these.
 */
export function declaredConfigVariables(service: ServiceName): readonly string[] {
  return configVariables.get(service) ?? [];
}

/**
 * Parses the service's environment: the shared settings every service has plus its own
 * `extra` settings. A wrong value throws ConfigError naming the variable.
 */
export function loadConfig<E extends z.ZodRawShape>(
  service: ServiceName,
  extra: (appEnv: AppEnv) => E,
  env: NodeJS.ProcessEnv = process.env,
): BaseConfig & { raw: BaseParsed & z.infer<z.ZodObject<E>> } {
  const appEnvResult = z
    .enum(APP_ENVS)
    .default('dev')
    .safeParse(env.APP_ENV || undefined);
  // A wrong APP_ENV is named with the other wrong values (the schema checks it again below); the
  // rest is read as in development meanwhile.
  const appEnv = appEnvResult.success ? appEnvResult.data : 'dev';
  const schema = z.object({ ...baseShape(service, appEnv), ...extra(appEnv) });
  configVariables.set(service, Object.keys(schema.shape));
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(formatIssues(result.error.issues, env));
  }
  const raw = result.data as unknown as BaseParsed & z.infer<z.ZodObject<E>>;
  const peers = Object.fromEntries(
    SERVICES.map((s) => [
      s,
      {
        baseUrl: String(raw[`${envPrefix(s)}_BASE_URL` as keyof BaseParsed]).replace(/\/$/, ''),
        token: String(raw[`${envPrefix(s)}_INTERNAL_TOKEN` as keyof BaseParsed]),
      },
    ]),
  ) as Record<ServiceName, Peer>;
  // A store that forgets every write on restart is for development and tests only.
  refuseInProduction(
    appEnv,
    'PERSISTENCE_BACKEND=inmemory',
    raw.PERSISTENCE_BACKEND === 'inmemory',
    '(the default; every write is lost on restart, use sqlite or docstore)',
  );
  if (raw.PERSISTENCE_BACKEND === 'docstore' && !raw.FIRESTORE_PROJECT_ID)
    configProblem('FIRESTORE_PROJECT_ID is required when PERSISTENCE_BACKEND=docstore');
  if (raw.PERSISTENCE_BACKEND === 'sqlite') {
    const problem = dataDirProblem(raw.DATA_DIR, service);
    if (problem) configProblem(`DATA_DIR ${problem} (value: ${JSON.stringify(raw.DATA_DIR)})`);
  }
  return {
    service,
    appEnv,
    env: appEnv,
    host: raw.HOST,
    port: raw.PORT,
    logLevel: raw.LOG_LEVEL,
    corsOrigins: raw.CORS_ORIGINS,
    bodyLimit: raw.BODY_LIMIT_BYTES,
    requestTimeoutMs: raw.REQUEST_TIMEOUT_SECONDS * 1000,
    shutdownGraceMs: raw.SHUTDOWN_GRACE_SECONDS * 1000,
    internalTimeoutMs: raw.INTERNAL_API_TIMEOUT_SECONDS * 1000,
    clockSkewAllowanceMs: raw.CLOCK_SKEW_ALLOWANCE_MS,
    publicBaseUrl: (
      raw.PUBLIC_BASE_URL ?? `http://127.0.0.1:${service === 'gateway' ? raw.PORT : DEFAULT_PORTS.gateway}`
    ).replace(/\/$/, ''),
    persistence: {
      backend: raw.PERSISTENCE_BACKEND,
      dataDir: raw.DATA_DIR,
      sqliteMaxSizeBytes:
        raw.SQLITE_MAX_SIZE_MB === undefined ? undefined : raw.SQLITE_MAX_SIZE_MB * 1_048_576,
      firestoreProjectId: raw.FIRESTORE_PROJECT_ID,
      firestoreDatabaseId: raw.FIRESTORE_DATABASE_ID,
    },
    internalToken: peers[service].token,
    peers,
    raw,
  };
}

/**
 * Why DATA_DIR cannot hold the service's SQLite file, or null when it can: it is created when
 * missing, must be a directory that takes a file, and the service's database file (with its
 * WAL and shared-memory files), when present, must be readable and writable. The file name
 * is the store's (`<DATA_DIR>/<service>.sqlite`, see storeConfigFromEnv in @hs/store).
 */
function dataDirProblem(dataDir: string, service: ServiceName): string | null {
  const problem = writableDirProblem(dataDir);
  if (problem) return problem;
  const file = join(dataDir, `${service}.sqlite`);
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (!existsSync(path)) continue;
    try {
      // access(), not open(): closing a descriptor of an open SQLite file drops its locks.
      accessSync(path, constants.R_OK | constants.W_OK);
    } catch (err) {
      return `holds the database file ${path}, which the service cannot write (${errnoOf(err)})`;
    }
  }
  return null;
}

/** Fails the boot in staging/production when a development-only switch is on. */
export function refuseInProduction(appEnv: AppEnv, variable: string, isDevOnly: boolean, why: string): void {
  if (isProductionLike(appEnv) && isDevOnly)
    configProblem(`${variable} ${why} is not allowed when APP_ENV=${appEnv}`);
}
