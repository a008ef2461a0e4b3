/// Unix epoch nanoseconds as ISO 8601 in UTC with microseconds,
/// `2026-11-30T10:08:15.123456Z`: the form DuckDB, ClickHouse and pandas read as a timestamp.
/// Pure arithmetic (the proleptic Gregorian calendar), fast enough for every exported row.
enum UTCTimestamp {
  static func iso8601(unixNanoseconds: Int64) -> String {
    let (seconds, nanoseconds) = floorDivide(unixNanoseconds, 1_000_000_000)
    let (days, secondOfDay) = floorDivide(seconds, 86_400)
    let (year, month, day) = civilDate(daysSinceEpoch: days)
    let hour = secondOfDay / 3_600
    let minute = secondOfDay / 60 % 60
    let second = secondOfDay % 60
    return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + "T"
      + padded(hour, 2) + ":" + padded(minute, 2) + ":" + padded(second, 2) + "."
      + padded(nanoseconds / 1_000, 6) + "Z"
  }

  /// Year, month (1–12) and day (1–31) of a day counted from 1970-01-01 (negative before).
  static func civilDate(daysSinceEpoch days: Int64) -> (Int64, Int64, Int64) {
    // Count from 0000-03-01 so that the leap day ends each 4-, 100- and 400-year cycle.
    let shifted = days + 719_468
    let (era, dayOfEra) = floorDivide(shifted, 146_097)
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let remainder = value % divisor
    return remainder < 0
      ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
  }

  private static func padded(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width
      ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}
