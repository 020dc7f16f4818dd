import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import {
  Cloud,
  CloudDrizzle,
  CloudFog,
  CloudLightning,
  CloudMoon,
  CloudMoonRain,
  CloudRain,
  CloudSnow,
  CloudSun,
  CloudSunRain,
  Moon,
  Sun,
  type LucideIcon,
} from 'lucide-react';
import { formatTime } from '../../domain/date-display';
import type { WeatherIcon } from '../../domain/weather';
import { hasUserDb, userDb } from '../../local/db';
import {
  readSavedWeather,
  refreshWeather,
  weatherAt,
  WEATHER_KEY,
  whenLocationMayBeAsked,
} from '../../local/weather';
import { useOnline } from '../ui/use-online';

// The header's weather (src/app/README.md): the icon of the weather code (a moon at night), the
// temperature in C and F, and from 768 px the place. Loaded after the first paint (header.tsx), it shows
// the weather last kept on the device at once, then asks for the current one (on start, or on the first tap
// while the browser would still have to ask for the position; every 10 minutes; and when the connection
// comes back). Offline it keeps showing the last weather, saying when it was read.
// With no weather yet (no permission, no position, the service down) it shows nothing; failures are only
// logged (local/weather.ts).

const ICONS: Record<WeatherIcon, { Icon: LucideIcon; label: string }> = {
  Sun: { Icon: Sun, label: 'Clear' },
  Moon: { Icon: Moon, label: 'Clear' },
  CloudSun: { Icon: CloudSun, label: 'Partly cloudy' },
  CloudMoon: { Icon: CloudMoon, label: 'Partly cloudy' },
  Cloud: { Icon: Cloud, label: 'Cloudy' },
  CloudFog: { Icon: CloudFog, label: 'Fog' },
  CloudDrizzle: { Icon: CloudDrizzle, label: 'Drizzle' },
  CloudRain: { Icon: CloudRain, label: 'Rain' },
  CloudSunRain: { Icon: CloudSunRain, label: 'Rain showers' },
  CloudMoonRain: { Icon: CloudMoonRain, label: 'Rain showers' },
  CloudSnow: { Icon: CloudSnow, label: 'Snow' },
  CloudLightning: { Icon: CloudLightning, label: 'Thunderstorm' },
};

const REFRESH_MS = 10 * 60 * 1000;
/** The minute the clock is read again (the moon comes at 18:01 and goes at 06:00). */
const TICK_MS = 60 * 1000;

function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Asks for the current weather as soon as the position may be asked for (local/weather.ts), then every
 * 10 minutes and on reconnecting, while the header is shown.
 */
function useWeatherRefresh(online: boolean): void {
  useEffect(() => {
    if (!online || !hasUserDb()) return;
    const db = userDb();
    let timer: ReturnType<typeof setInterval> | undefined;
    const stopWaiting = whenLocationMayBeAsked(() => {
      void refreshWeather(db);
      timer = setInterval(() => void refreshWeather(db), REFRESH_MS);
    });
    return () => {
      stopWaiting();
      clearInterval(timer);
    };
  }, [online]);
}

export default function WeatherChip() {
  const online = useOnline();
  const now = useNow();
  useWeatherRefresh(online);
  const saved = useLiveQuery(async () => (hasUserDb() ? readSavedWeather(userDb()) : null), [WEATHER_KEY]);
  const weather = saved ? weatherAt(saved, now) : null;
  if (!saved || !weather) return null;
  const { Icon, label } = ICONS[weather.icon];
  const readAt = formatTime(saved.savedAt);
  return (
    <p
      className="flex shrink-0 items-center gap-1.5 text-small whitespace-nowrap text-muted"
      data-testid="weather"
      data-icon={weather.icon}
    >
      <Icon role="img" aria-label={label} className="h-5 w-5 shrink-0 text-text" strokeWidth={1.75} />
      {/* A phone stacks C over F in small type, to leave the greeting room on the one line. */}
      <span className="flex flex-col text-xs leading-tight text-text md:flex-row md:text-small md:leading-normal">
        <span>{weather.weatherC}°C</span>
        <span className="hidden md:inline">&nbsp;/&nbsp;</span>
        <span>{weather.weatherF}°F</span>
      </span>
      {weather.place ? <span className="hidden truncate md:inline">{weather.place}</span> : null}
      {online ? null : (
        // Offline: when this weather was read (on a phone for screen readers only, to keep one line).
        <span className="sr-only md:not-sr-only" data-testid="weather-read-at">
          (as of {readAt})
        </span>
      )}
    </p>
  );
}
