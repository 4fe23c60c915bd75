// name: DailyDigest
// route: /digest
// method: GET
var open = await Indexes.OpenTickets.Query();
return Results.Ok(new { count = open.Count, type = N.Ticket.Type });
