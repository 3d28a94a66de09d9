import { z } from "zod";
import { showtimeSchema, cinemaSchema, provenanceSchema, attributeSchema, filmSchema } from "../build/schemas.js";
console.log(JSON.stringify(z.toJSONSchema(showtimeSchema, { target: "draft-2020-12", io: "output", unrepresentable: "any" }), null, 1));
const reg = z.registry<{ id: string }>();
reg.add(provenanceSchema, { id: "Provenance" });
reg.add(showtimeSchema, { id: "Showtime" });
reg.add(attributeSchema, { id: "Attribute" });
console.log(JSON.stringify(z.toJSONSchema(reg, { target: "draft-2020-12", uri: (id) => `#/components/schemas/${id}` }), null, 1).slice(0, 3000));
