/**
 * The world dataset's United States: 5,500 cinema sites do not stand in ten cities. Its cinemas go to
 * the 49 largest metropolitan areas, each weighted by its population (hundreds of thousands, Census
 * Bureau estimates, rounded) and spread over its area (`spreadKm`), so that around a point in New
 * York there are the few hundred cinemas of a real metro, not 1,282 within 8 km of its centre. The
 * country dataset (without --markets) keeps places.ts's ten cities, byte for byte.
 */
import { city, type City } from "./places.js";

/** A metro's cinemas stand within about its radius: the square root of its population, 8 km at the least. */
const metro = (...args: Parameters<typeof city>): City => {
  const place = city(...args);
  return { ...place, spreadKm: Math.max(8, 6.5 * Math.sqrt(place.weight / 10)) };
};

const [ET, CT, MT, PT] = ["-05:00", "-06:00", "-07:00", "-08:00"];

// biome-ignore format: a table, one metro to a line
export const WORLD_US_METROS: readonly City[] = [
  metro("New York", "nyc", 40.7128, -74.006, 196, [10001, 10282], ET),
  metro("Los Angeles", "lax", 34.0522, -118.2437, 129, [90001, 90089], PT),
  metro("Chicago", "chi", 41.8781, -87.6298, 94, [60601, 60661], CT),
  metro("Dallas", "dfw", 32.7767, -96.797, 78, [75201, 75398], CT),
  metro("Houston", "hou", 29.7604, -95.3698, 73, [77001, 77099], CT),
  metro("Washington", "was", 38.9072, -77.0369, 63, [20001, 20099], ET),
  metro("Atlanta", "atl", 33.749, -84.388, 63, [30301, 30350], ET),
  metro("Philadelphia", "phl", 39.9526, -75.1652, 62, [19102, 19154], ET),
  metro("Miami", "mia", 25.7617, -80.1918, 62, [33101, 33199], ET),
  metro("Phoenix", "phx", 33.4484, -112.074, 51, [85001, 85055], MT),
  metro("Boston", "bos", 42.3601, -71.0589, 49, [2108, 2137], ET),
  metro("Riverside", "riv", 33.9806, -117.3755, 47, [92501, 92599], PT),
  metro("San Francisco", "sfo", 37.7749, -122.4194, 46, [94102, 94134], PT),
  metro("Detroit", "dtw", 42.3314, -83.0458, 43, [48201, 48288], ET),
  metro("Seattle", "sea", 47.6062, -122.3321, 41, [98101, 98199], PT),
  metro("Minneapolis", "msp", 44.9778, -93.265, 37, [55401, 55488], CT),
  metro("San Diego", "san", 32.7157, -117.1611, 33, [92101, 92199], PT),
  metro("Tampa", "tpa", 27.9506, -82.4572, 33, [33601, 33694], ET),
  metro("Denver", "den", 39.7392, -104.9903, 30, [80201, 80239], MT),
  metro("Baltimore", "bwi", 39.2904, -76.6122, 28, [21201, 21298], ET),
  metro("St. Louis", "stl", 38.627, -90.1994, 28, [63101, 63199], CT),
  metro("Orlando", "mco", 28.5383, -81.3792, 28, [32801, 32899], ET),
  metro("Charlotte", "clt", 35.2271, -80.8431, 28, [28201, 28299], ET),
  metro("San Antonio", "sat", 29.4241, -98.4936, 27, [78201, 78299], CT),
  metro("Portland", "pdx", 45.5152, -122.6784, 25, [97201, 97299], PT),
  metro("Sacramento", "smf", 38.5816, -121.4944, 24, [95811, 95899], PT),
  metro("Pittsburgh", "pit", 40.4406, -79.9959, 24, [15201, 15295], ET),
  metro("Austin", "aus", 30.2672, -97.7431, 24, [78701, 78799], CT),
  metro("Las Vegas", "las", 36.1699, -115.1398, 23, [89101, 89199], PT),
  metro("Cincinnati", "cvg", 39.1031, -84.512, 23, [45201, 45299], ET),
  metro("Kansas City", "mci", 39.0997, -94.5786, 22, [64101, 64199], CT),
  metro("Columbus", "cmh", 39.9612, -82.9988, 22, [43201, 43299], ET),
  metro("Indianapolis", "ind", 39.7684, -86.1581, 21, [46201, 46298], ET),
  metro("Cleveland", "cle", 41.4993, -81.6944, 21, [44101, 44199], ET),
  metro("San Jose", "sjc", 37.3382, -121.8863, 20, [95101, 95199], PT),
  metro("Nashville", "bna", 36.1627, -86.7816, 20, [37201, 37250], CT),
  metro("Virginia Beach", "orf", 36.8529, -75.978, 18, [23450, 23479], ET),
  metro("Jacksonville", "jax", 30.3322, -81.6557, 17, [32201, 32290], ET),
  metro("Providence", "pvd", 41.824, -71.4128, 17, [2901, 2940], ET),
  metro("Milwaukee", "mke", 43.0389, -87.9065, 16, [53201, 53295], CT),
  metro("Raleigh", "rdu", 35.7796, -78.6382, 15, [27601, 27699], ET),
  metro("Oklahoma City", "okc", 35.4676, -97.5164, 14, [73101, 73199], CT),
  metro("Memphis", "mem", 35.1495, -90.049, 13, [38101, 38197], CT),
  metro("Louisville", "sdf", 38.2527, -85.7585, 13, [40201, 40299], ET),
  metro("Salt Lake City", "slc", 40.7608, -111.891, 13, [84101, 84199], MT),
  metro("Richmond", "ric", 37.5407, -77.436, 13, [23218, 23298], ET),
  metro("Buffalo", "buf", 42.8864, -78.8784, 11, [14201, 14280], ET),
  metro("New Orleans", "msy", 29.9511, -90.0715, 10, [70112, 70199], CT),
  metro("Albuquerque", "abq", 35.0844, -106.6504, 9, [87101, 87199], MT),
];
