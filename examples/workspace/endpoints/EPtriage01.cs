// name: TriageTicket
// route: /tickets/{id}/triage
// method: POST
// description: Runs the triage agent on one ticket
var ticket = await Graph.Get(N.Ticket.Type, request.Id);
var result = await Agents.Triage.Run(ticket, Prompts.TriageInstructions);
await Mail.Notify(Secrets.SupportMailbox, ticket);
return Results.Ok(result);
