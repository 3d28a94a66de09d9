import { renderComponentSchemas } from "../build/openapi-schemas.js";
console.log(JSON.stringify(renderComponentSchemas(), null, 1));
