export type { AppConfig, ConfigProblem, SecretKeySource } from './load-config';
export { ConfigError, loadConfig, parseConfig, resolveSecretKey, sqlitePath } from './load-config';
export type { Config, ConfigKey } from './config-table';
export { configTable } from './config-table';
export type { NodeRole } from './process-env';
export { NODE_ROLES_ENV, invokingUser, nodeRoles, processEnv } from './process-env';
export { mailHostnameWarning } from './mail-hostname-warning';
export type { DatabaseKind } from './database-url';
export { databaseKind, redactDatabaseUrl, sqliteFileOf } from './database-url';
