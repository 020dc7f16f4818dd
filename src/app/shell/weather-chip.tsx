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
  locationPermission,
  readSavedWeather,
  refreshWeather,
  weatherAt,
  weatherFromZip,
  WEATHER_KEY,
  type WeatherFailure,
  type WeatherFrom,
} from '../../local/weather';
import { Button } from '../ui/button';
import { DialogFrame } from '../ui/confirm-dialog';
import { useOnline } from '../ui/use-online';
import { useProfile } from './use-session';

// The header's weather (src/app/README.md): the icon of the weather code (a moon at night), the
// temperature in C and F, and from 768 px the place. Loaded after the first paint (header.tsx), it shows
// the weather last kept on the device at once, then asks for the current one (on start, every 10 minutes,
// and when the connection comes back). Offline it keeps showing the last weather, saying when it was read.
//
// Where: the person's profile zip code, which asks them nothing. Their location is never asked for on its
// own: with no US zip code (a PIN code, or one the server does not know), the header offers 'Show weather',
// and only a tap on it explains why the location is needed and, on 'Use my location', asks the browser.
// Once the browser allows it, later visits read the position without asking. Failures are only logged
// (local/weather.ts); the person hears of one only after asking for the weather themselves.

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
 * Asks for the current weather from `from` (nothing while it is null), then every 10 minutes, on
 * reconnecting and when the profile's zip code changes, while the header is shown. `setNoPlaceZip` hears of
 * a zip code the server knows no place for.
 */
function useWeatherRefresh(
  online: boolean,
  from: WeatherFrom | null,
  zip: string | null,
  setNoPlaceZip: (zip: string | null) => void,
): void {
  useEffect(() => {
    if (!online || !from || !hasUserDb()) return;
    const db = userDb();
    const refresh = () =>
      void refreshWeather(db, from).then((result) => {
        if ('failed' in result && result.failed === 'no-place') setNoPlaceZip(zip);
      });
    refresh();
    const timer = setInterval(refresh, REFRESH_MS);
    return () => clearInterval(timer);
  }, [online, from, zip, setNoPlaceZip]);
}

/**
 * Where the weather comes from without asking anyone anything: the profile's zip code, else the position
 * when the browser already allows it; null when only the person can choose (undefined while it is read).
 */
function useWeatherFrom(): WeatherFrom | null | undefined {
  const profile = useProfile();
  const zip = profile?.zip_code ?? null;
  const [noPlaceZip, setNoPlaceZip] = useState<string | null>(null);
  const [permission, setPermission] = useState<PermissionState | null>(null);
  const byZip = profile === undefined ? undefined : weatherFromZip(zip) && zip !== noPlaceZip;
  useEffect(() => {
    if (byZip !== false) return;
    let current = true;
    void locationPermission().then((state) => {
      if (current) setPermission(state);
    });
    return () => {
      current = false;
    };
  }, [byZip]);
  const from = byZip ? 'zip' : byZip === false && permission === 'granted' ? 'position' : null;
  // When the server knows no place for the zip code, the person may share their position instead.
  useWeatherRefresh(useOnline(), from, from === 'zip' ? zip : null, setNoPlaceZip);
  if (byZip === undefined || (byZip === false && permission === null)) return undefined;
  return from;
}

export default function WeatherChip() {
  const online = useOnline();
  const now = useNow();
  const from = useWeatherFrom();
  // The person shared their position on this page: its weather shows even where the browser lets the site
  // read the position only once.
  const [shared, setShared] = useState(false);
  const saved = useLiveQuery(async () => (hasUserDb() ? readSavedWeather(userDb()) : null), [WEATHER_KEY]);
  if (from === undefined) return null;
  if (from === null && !shared) return <ShowWeather onShared={() => setShared(true)} />;
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

const WHY =
  'To show the weather where you are, Kincare needs your location. It is used only to look up the ' +
  'weather, rounded to about a kilometre, and is not kept. Your browser will ask you to allow it.';
const PROBLEMS: Record<WeatherFailure['failed'], string> = {
  'no-position':
    'Your browser did not share your location, so the weather cannot be shown. You can allow location for this site in your browser’s settings.',
  'no-place': 'The weather could not be loaded just now. Please try again later.',
  unavailable: 'The weather could not be loaded just now. Please try again later.',
};

/**
 * 'Show weather': nothing is asked of the browser until the person taps it, reads why the location is
 * needed, and chooses 'Use my location'. On a phone the chip is its icon (its name is read out), so the
 * greeting keeps its room; from 768 px it says 'Show weather'.
 */
function ShowWeather({ onShared }: { onShared: () => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const close = () => {
    setOpen(false);
    setProblem(null);
  };
  const shareLocation = async () => {
    if (!hasUserDb()) return;
    setBusy(true);
    setProblem(null);
    try {
      const result = await refreshWeather(userDb(), 'position');
      if ('failed' in result) setProblem(PROBLEMS[result.failed]);
      else {
        setOpen(false);
        onShared();
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="flex min-h-11 min-w-11 shrink-0 items-center justify-center gap-1.5 rounded-full px-2 text-small font-semibold text-text ring-1 ring-border ring-inset hover:bg-surface-muted focus:outline-none focus-visible:ring-2 focus-visible:ring-focus md:px-3"
        data-testid="show-weather"
      >
        <CloudSun aria-hidden="true" className="h-5 w-5 shrink-0" strokeWidth={1.75} />
        <span className="max-md:sr-only">Show weather</span>
      </button>
      <DialogFrame
        open={open}
        title="Show the weather"
        message={WHY}
        onClose={close}
        actions={
          <>
            <Button variant="secondary" onClick={close}>
              Not now
            </Button>
            <Button autoFocus onClick={() => void shareLocation()} disabled={busy}>
              {busy ? 'Finding your location...' : 'Use my location'}
            </Button>
          </>
        }
      >
        {problem ? (
          <p role="alert" className="mt-4 rounded-control bg-danger-soft p-3 text-small text-danger-strong">
            {problem}
          </p>
        ) : null}
      </DialogFrame>
    </>
  );
}
