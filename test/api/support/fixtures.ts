/** Wire-shaped resources as the API sends them. */
export const monitor = {
  id: 'mon_1',
  name: 'Website',
  type: 'http',
  active: true,
  interval: 60,
  timeout: 10,
  url: 'https://example.com',
  method: 'GET',
  regions: ['eu'],
  autoIncidents: false,
  rules: [],
  currentStatus: 'up',
  lastStatus: 'up',
  lastLatency: 123,
  lastCheckedAt: '2025-01-01T00:00:00.000Z',
};

export const monitorSubset = {
  id: 'mon_2',
  name: 'API',
  type: 'http',
  active: true,
  interval: 60,
  url: 'https://api.example.com',
  regions: ['eu', 'us'],
};

export const check = {
  id: 'chk_1',
  monitorId: 'mon_1',
  status: 'up',
  latency: 87,
  statusCode: 200,
  region: 'eu',
  checkedAt: '2025-01-01T00:00:00.000Z',
};

export const statusPage = {
  id: 'sp_1',
  name: 'Acme status',
  slug: 'acme',
  isPublic: true,
  brandColor: '#000000',
  showResponseTimes: true,
  monitors: [{ id: 'spm_1', monitorId: 'mon_1', displayName: 'Website', sortOrder: 0, monitor: { id: 'mon_1', name: 'Website' } }],
};

export const incident = {
  id: 'inc_1',
  title: 'Slow responses',
  status: 'investigating',
  severity: 'minor',
  startedAt: '2025-01-01T00:00:00.000Z',
  resolvedAt: null,
  updates: [{ id: 'upd_1', status: 'investigating', message: 'Looking into it', createdAt: '2025-01-01T00:00:00.000Z' }],
  monitors: [{ monitor: { id: 'mon_1', name: 'Website' } }],
};

export const maintenanceWindow = {
  id: 'mw_1',
  title: 'Database upgrade',
  description: 'Short downtime',
  status: 'scheduled',
  scheduledStart: '2025-02-01T00:00:00.000Z',
  scheduledEnd: '2025-02-01T01:00:00.000Z',
  monitors: [{ monitor: { id: 'mon_1', name: 'Website' } }],
};

export const organization = {
  id: 'org_1',
  name: 'Acme',
  slug: 'acme',
  logo: null,
  createdAt: '2024-01-01T00:00:00.000Z',
  subscriptionActive: true,
  subscriptionPlanName: 'Pro',
  cancelAtPeriodEnd: false,
  plan: 'pro',
};

export const channel = {
  id: 'ch_1',
  name: 'Ops mail',
  type: 'email',
  recipientEmail: 'ops@example.com',
  enabled: true,
  onMonitorDown: true,
  onMonitorRecovered: true,
  onIncidentCreated: true,
  onIncidentResolved: true,
  onIncidentUpdated: true,
  onMaintenanceScheduled: true,
  onMaintenanceStarted: true,
  onMaintenanceCompleted: true,
};

export const pagination = (total: number, offset = 0, limit = 20) => ({ total, limit, offset, hasMore: offset + limit < total });
