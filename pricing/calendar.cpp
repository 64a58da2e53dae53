#include "calendar.hpp"


namespace lcg::pricing {

namespace {

using namespace std::chrono;

// A non-negative number with leading zeros up to `width` digits.
std::string padded(long long value, std::size_t width)
{
    std::string digits = std::to_string(value);
    if (digits.size() < width)
        digits.insert(0, width - digits.size(), '0');
    return digits;
}

bool parse_digits(std::string_view text, int& out)
{
    if (text.empty())
        return false;
    int value = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return false;
        value = value * 10 + (c - '0');
    }
    out = value;
    return true;
}

sys_days monday_of_week_one(int year)
{
    // Week 1 is the week that contains 4 January.
    sys_days const jan4 = year_month_day{std::chrono::year{year}, January, day{4}};
    return jan4 - (weekday{jan4} - Monday);
}

int weeks_in_year(int year)
{
    return week_containing(sys_days{year_month_day{std::chrono::year{year}, December, day{28}}}).week;
}

}

iso_week week_containing(instant t)
{
    sys_days const d = floor<days>(t);
    sys_days const thursday = d - (weekday{d} - Monday) + days{3};
    int const year = static_cast<int>(year_month_day{thursday}.year());
    int const week = static_cast<int>((thursday - monday_of_week_one(year)).count() / 7) + 1;
    return {year, week};
}

instant monday_of(iso_week week)
{
    return monday_of_week_one(week.year) + weeks{week.week - 1};
}

iso_week next_week(iso_week week) { return week_containing(monday_of(week) + weeks{1}); }
iso_week previous_week(iso_week week) { return week_containing(monday_of(week) - weeks{1}); }

time_window observation_window(iso_week week)
{
    instant const recheck = monday_of(week);
    return {recheck - days{7}, recheck};
}

outcome<iso_week> parse_week(std::string_view text)
{
    iso_week w;
    if (text.size() != 8 || text[4] != '-' || text[5] != 'W' || !parse_digits(text.substr(0, 4), w.year) ||
        !parse_digits(text.substr(6, 2), w.week))
        return invalid(quote(text) + " is not an ISO week (expected YYYY-Www, such as 2026-W49)",
                       quote(text) + " n’est pas une semaine ISO (attendu\u202F: AAAA-Wss, comme 2026-W49)");
    if (w.year < 1970 || w.week < 1 || w.week > weeks_in_year(w.year))
        return invalid(quote(text) + " is not a week of year " + std::to_string(w.year),
                       quote(text) + " n’est pas une semaine de l’année " + std::to_string(w.year));
    return w;
}

std::string to_string(iso_week week)
{
    return padded(week.year, 4) + "-W" + padded(week.week, 2);
}

outcome<instant> parse_utc_timestamp(std::string_view text)
{
    // Positions of the fixed separators in YYYY-MM-DDTHH:MM:SSZ.
    auto const bad = [&](std::string const& why) {
        return invalid(quote(text) + " is not an RFC 3339 UTC timestamp (" + why +
                       "; expected YYYY-MM-DDTHH:MM:SSZ)");
    };
    if (text.size() > 19 && text[19] == '.')
        return bad("fractional seconds are not accepted");
    if (text.size() != 20 || text[4] != '-' || text[7] != '-' || (text[10] != 'T' && text[10] != 't') ||
        text[13] != ':' || text[16] != ':' || (text[19] != 'Z' && text[19] != 'z'))
        return bad("wrong shape or not in UTC");
    int y, mo, d, h, mi, s;
    if (!parse_digits(text.substr(0, 4), y) || !parse_digits(text.substr(5, 2), mo) ||
        !parse_digits(text.substr(8, 2), d) || !parse_digits(text.substr(11, 2), h) ||
        !parse_digits(text.substr(14, 2), mi) || !parse_digits(text.substr(17, 2), s))
        return bad("non-digit in a date or time field");
    year_month_day const date{std::chrono::year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}};
    if (!date.ok() || y < 1970 || h > 23 || mi > 59 || s > 59)
        return bad("no such date or time");
    return instant{sys_days{date}} + hours{h} + minutes{mi} + seconds{s};
}

std::string to_rfc3339(instant t)
{
    sys_days const d = floor<days>(t);
    year_month_day const date{d};
    hh_mm_ss const time{t - d};
    return padded(static_cast<int>(date.year()), 4) + "-" + padded(static_cast<unsigned>(date.month()), 2) + "-" +
           padded(static_cast<unsigned>(date.day()), 2) + "T" + padded(time.hours().count(), 2) + ":" +
           padded(time.minutes().count(), 2) + ":" + padded(time.seconds().count(), 2) + "Z";
}

}
