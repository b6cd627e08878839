/*
 * refusal_report.c — see refusal_report.h.
 */
#include "config.h"

#include "process/refusal_report.h"

/* The fields after "time", in the order the README shows. */
static void egress_fields(struct report_line *l, const void *arg)
{
    const struct refusal_event *e = arg;
    report_field_string(l, "frontEnd", e->front_end, 16);
    report_field_string(l, "host", e->host, 260);
    report_field_uint(l, "port", e->port);
    report_field_string(l, "address", e->address, 64);
    report_field_string(l, "rule", e->rule, 40);
    report_field_text(l, "reason", e->reason);
}

size_t refusal_report_format(char *out, size_t cap, const struct refusal_event *e)
{
    return report_format(out, cap, REFUSAL_EVENT, e->time, e->dropped, egress_fields, e);
}

void refusal_report_write(int fd, const struct refusal_event *e)
{
    report_write(fd, REFUSAL_EVENT, egress_fields, e);
}

static void failure_fields(struct report_line *l, const void *arg)
{
    const struct failure_event *e = arg;
    report_field_string(l, "frontEnd", e->front_end, 16);
    report_field_string(l, "host", e->host, 260);
    report_field_uint(l, "port", e->port);
    report_field_string(l, "cause", e->cause, 40);
    report_field_string(l, "upstream", e->upstream, 300);
    if (e->status)
        report_field_uint(l, "upstreamStatus", (unsigned long long)e->status);
    else
        report_field_string(l, "upstreamStatus", NULL, 0); /* null */
    report_field_text(l, "reason", e->reason);
}

void failure_report_write(int fd, const struct failure_event *e)
{
    report_write(fd, FAILURE_EVENT, failure_fields, e);
}
