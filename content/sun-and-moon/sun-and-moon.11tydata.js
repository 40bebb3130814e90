// The sky for each edition, worked out when the site is built: sunrise,
// sunset, daylight and the moon's phase over the subscriber's city (suncalc,
// so no network and no API key). `sky` is a function: the kit calls it for
// every edition and city with the edition's front matter and `config`, and
// the edition's Liquid sees its answer as {{ sky.sunrise }} and so on.
import { getMoonIllumination, getTimes } from "suncalc";

/** The cities of the "city" setting (publication.json): where they are, and their clocks. */
const CITIES = {
  london: { name: "London", lat: 51.5072, lng: -0.1276, zone: "Europe/London" },
  "new-york": { name: "New York", lat: 40.7128, lng: -74.006, zone: "America/New_York" },
  tokyo: { name: "Tokyo", lat: 35.6762, lng: 139.6503, zone: "Asia/Tokyo" },
  sydney: { name: "Sydney", lat: -33.8688, lng: 151.2093, zone: "Australia/Sydney" },
  tromso: { name: "Tromsø", lat: 69.6492, lng: 18.9553, zone: "Europe/Oslo" },
};

const PHASES = [
  "new moon",
  "waxing crescent",
  "first quarter",
  "waxing gibbous",
  "full moon",
  "waning gibbous",
  "last quarter",
  "waning crescent",
];

export default {
  sky({ date, config }) {
    const city = CITIES[config.city];
    if (!city) throw new Error(`no city "${config.city}": add it to CITIES`);
    const [year, month, day] = date.split("-").map(Number);
    // Solar noon of that date in the city: suncalc gives the times of the solar day around it.
    const noon = new Date(Date.UTC(year, month - 1, day, 12) - (city.lng / 15) * 3600_000);
    const sun = getTimes(noon, city.lat, city.lng);
    const moon = getMoonIllumination(noon);
    const clock = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: city.zone });
    const daylight = sun.sunrise && sun.sunset ? Math.round((sun.sunset - sun.sunrise) / 60_000) : undefined;
    return {
      city: city.name,
      sunrise: sun.sunrise ? clock.format(sun.sunrise) : undefined,
      sunset: sun.sunset ? clock.format(sun.sunset) : undefined,
      noon: clock.format(sun.solarNoon),
      daylight: daylight === undefined ? undefined : `${Math.floor(daylight / 60)} h ${daylight % 60} min`,
      polar: sun.alwaysDown ? "night" : sun.alwaysUp ? "day" : undefined,
      moon: PHASES[Math.round(moon.phase * 8) % 8],
      lit: Math.round(moon.fraction * 100),
    };
  },
};
