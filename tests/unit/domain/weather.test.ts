import { describe, expect, it } from 'vitest';
import { greetingFor } from '../../../src/domain/clock';
import {
  celsiusToFahrenheit,
  isNight,
  openMeteoForecastSchema,
  weatherFromForecast,
  weatherGreeting,
  weatherIcon,
} from '../../../src/domain/weather';

const answer = (current: Record<string, unknown>) => ({
  latitude: 40.7,
  current_units: { temperature_2m: '°C' },
  current: { temperature_2m: 21.4, weather_code: 0, is_day: 1, time: '2026-11-24T14:00', ...current },
});

describe('weatherGreeting', () => {
  it.each([
    [0, 'Morning'],
    [11, 'Morning'],
    [12, 'Afternoon'],
    [17, 'Afternoon'],
    [18, 'Evening'],
    [23, 'Evening'],
  ])('at %i:xx says %s', (hour, word) => {
    expect(weatherGreeting(hour)).toBe(word);
  });

  it('follows the same hours as the header greeting', () => {
    for (let hour = 0; hour < 24; hour += 1) expect(greetingFor(hour)).toBe(`Good ${weatherGreeting(hour)}`);
  });
});

describe('isNight', () => {
  it('is night before 06:00 and after 18:00; 06:00 and 18:00 exactly are day', () => {
    expect(isNight(0)).toBe(true);
    expect(isNight(5, 59)).toBe(true);
    expect(isNight(6)).toBe(false);
    expect(isNight(12)).toBe(false);
    expect(isNight(18)).toBe(false);
    expect(isNight(18, 1)).toBe(true);
    expect(isNight(19)).toBe(true);
    expect(isNight(23, 59)).toBe(true);
  });
});

describe('weatherIcon', () => {
  // Every code of each WMO range, by day and by night.
  const RANGES: [number, number, string, string][] = [
    [0, 0, 'Sun', 'Moon'],
    [1, 2, 'CloudSun', 'CloudMoon'],
    [3, 3, 'Cloud', 'Cloud'],
    [45, 48, 'CloudFog', 'CloudFog'],
    [51, 57, 'CloudDrizzle', 'CloudDrizzle'],
    [61, 67, 'CloudRain', 'CloudRain'],
    [71, 77, 'CloudSnow', 'CloudSnow'],
    [80, 82, 'CloudSunRain', 'CloudMoonRain'],
    [85, 86, 'CloudSnow', 'CloudSnow'],
    [95, 99, 'CloudLightning', 'CloudLightning'],
  ];
  it.each(RANGES)('codes %i to %i show %s by day and %s at night', (from, to, day, night) => {
    for (let code = from; code <= to; code += 1) {
      expect(weatherIcon(code, false)).toBe(day);
      expect(weatherIcon(code, true)).toBe(night);
    }
  });

  it('shows a plain cloud for codes Open-Meteo does not document', () => {
    for (const code of [4, 44, 49, 50, 58, 60, 68, 70, 78, 79, 83, 84, 87, 94])
      expect([weatherIcon(code, false), weatherIcon(code, true)]).toEqual(['Cloud', 'Cloud']);
  });
});

describe('celsiusToFahrenheit', () => {
  it.each([
    [0, 32],
    [100, 212],
    [-40, -40],
    [37, 99],
    [21.4, 71],
    [21.5, 71],
    [21.7, 71],
    [21.9, 71],
    [22, 72],
    [-17.9, 0],
    [-18, 0],
    [-18.1, -1],
  ])('%f °C is %i °F', (celsius, fahrenheit) => {
    expect(Object.is(celsiusToFahrenheit(celsius), fahrenheit)).toBe(true);
  });
});

describe('weatherFromForecast', () => {
  it('builds the Weather entity by day', () => {
    expect(weatherFromForecast(answer({}), { hour: 14 }, ' Brooklyn ')).toEqual({
      weather: { greeting: 'Afternoon', icon: 'Sun', weatherC: 21, weatherF: 71, place: 'Brooklyn' },
    });
  });

  it('swaps sun icons for moon icons by the hour, not by is_day', () => {
    const clear = answer({ weather_code: 0, is_day: 1 });
    expect(weatherFromForecast(clear, { hour: 22 }, 'Pune')).toMatchObject({
      weather: { greeting: 'Evening', icon: 'Moon' },
    });
    expect(weatherFromForecast(answer({ weather_code: 2 }), { hour: 5 }, 'Pune')).toMatchObject({
      weather: { greeting: 'Morning', icon: 'CloudMoon' },
    });
    expect(weatherFromForecast(answer({ weather_code: 81, is_day: 0 }), { hour: 7 }, 'Pune')).toMatchObject({
      weather: { icon: 'CloudSunRain' },
    });
    expect(weatherFromForecast(clear, { hour: 18 }, 'Pune')).toMatchObject({ weather: { icon: 'Sun' } });
    expect(weatherFromForecast(clear, { hour: 18, minute: 1 }, 'Pune')).toMatchObject({
      weather: { icon: 'Moon' },
    });
  });

  it('rounds both temperatures from the measured one, never to -0', () => {
    const cold = weatherFromForecast(answer({ temperature_2m: -0.4 }), { hour: 9 }, 'Oslo');
    expect(cold).toMatchObject({ weather: { weatherC: 0, weatherF: 31 } });
    expect('weather' in cold && Object.is(cold.weather.weatherC, 0)).toBe(true);
    expect(weatherFromForecast(answer({ temperature_2m: 36.6 }), { hour: 9 }, 'X')).toMatchObject({
      weather: { weatherC: 37, weatherF: 98 },
    });
  });

  it('accepts an answer without is_day and drops unknown fields', () => {
    const { is_day: _isDay, ...current } = answer({}).current;
    expect(openMeteoForecastSchema.parse({ current, extra: true })).toEqual({ current });
  });

  it.each([
    ['no answer', undefined],
    ['an error body', { error: true, reason: 'Rate limit' }],
    ['no current block', { hourly: {} }],
    ['a temperature as text', answer({ temperature_2m: '21.4' })],
    ['a missing temperature', answer({ temperature_2m: undefined })],
    ['an impossible temperature', answer({ temperature_2m: 1000 })],
    ['an infinite temperature', answer({ temperature_2m: Number.POSITIVE_INFINITY })],
    ['a NaN temperature', answer({ temperature_2m: Number.NaN })],
    ['a fractional code', answer({ weather_code: 1.5 })],
    ['a negative code', answer({ weather_code: -1 })],
    ['a code above 99', answer({ weather_code: 100 })],
    ['a code as text', answer({ weather_code: '3' })],
    ['is_day 2', answer({ is_day: 2 })],
    ['is_day true', answer({ is_day: true })],
    ['a missing time', answer({ time: undefined })],
    ['a time that is not ISO', answer({ time: 'yesterday' })],
  ])('refuses %s, with a reason to log', (_what, body) => {
    const result = weatherFromForecast(body, { hour: 12 }, 'Anywhere');
    expect(result).toEqual({ error: expect.stringMatching(/^Weather answer refused: /) });
  });
});
