// The process logger (pino, JSON lines). Kept apart from the HTTP app so that commands that do
// not serve HTTP (admin, worker) can log without loading Fastify and every route.
import pino from 'pino';

// Never log credentials, cookies or bodies; URLs are logged without their query string values
// for parameters that could carry a secret.
// (@fastify/multipart logs its busboy options, request headers included, at trace level.)
const REDACT = [
  'req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', 'busboyOptions.headers',
  'headers.authorization', 'headers.cookie', '*.headers.authorization', '*.headers.cookie', '*.authorization', '*.password',
];

function redactUrl(url: string): string {
  return url.replace(/([?&](?:access_token|api_key|apikey|key|token|password|bearer)=)[^&]*/gi, '$1[redacted]').replace(/vk_[0-9A-Za-z]{20,}/g, 'vk_[redacted]');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  routeOptions?: { url?: string };
}

export function createLogger(level: string, destination?: pino.DestinationStream): pino.Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'vouch' },
    redact: { paths: REDACT, censor: '[redacted]' },
    serializers: {
      // Only what helps to follow a request; never headers or bodies.
      req: (req: LoggedRequest) => ({ method: req.method, url: redactUrl(req.url ?? ''), ip: req.ip, route: req.routeOptions?.url }),
      res: (res: { statusCode?: number }) => ({ status: res.statusCode }),
      err: pino.stdSerializers.err,
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

