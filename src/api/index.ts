/** Public surface of the API client. */
export { createClient, type ApiClient, type ClientOptions } from './client.ts';
export {
  ApiError,
  ApiUsageError,
  ApiConnectionError,
  ApiTimeoutError,
  ApiStatusError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  PayloadTooLargeError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  InvalidResponseError,
  type RequestLabel,
  type StatusErrorInit,
  type TimeoutPhase,
} from './errors.ts';
export type { Page } from './pagination.ts';
export type { InvalidItemHandler } from './codec.ts';
export type { ListParams, Logger } from './requester.ts';
export type { Timeouts } from './transport.ts';
export { createHttpDispatcher, type DispatchRequest, type DispatchResponse, type RequestDispatcher } from './http-dispatcher.ts';
export { DEFAULT_TIMEOUTS } from './transport.ts';
export type { ListAllOptions, CrudResource } from './resources/crud.ts';
export type { MonitorsResource } from './resources/monitors.ts';
export type { StatusPagesResource } from './resources/status-pages.ts';
export type { IncidentsResource } from './resources/incidents.ts';
export type { MaintenanceResource } from './resources/maintenance.ts';
export type { OrganizationResource } from './resources/organization.ts';
export type { NotificationsResource } from './resources/notifications.ts';
export { CLIENT_VERSION, USER_AGENT } from './version.ts';
/** The contract's resource and input types, re-exported for the client's callers. */
export type {
  Check,
  CreateChannelInput,
  CreateIncidentInput,
  CreateMaintenanceInput,
  CreateMonitorInput,
  CreateStatusPageInput,
  Incident,
  MaintenanceWindow,
  Monitor,
  NotificationChannel,
  Organization,
  PageMonitor,
  Pagination,
  StatusPage,
  UpdateChannelInput,
  UpdateIncidentInput,
  UpdateMaintenanceInput,
  UpdateMonitorInput,
  UpdateStatusPageInput,
} from '../contract/index.ts';
